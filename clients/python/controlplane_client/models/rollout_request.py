from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.failure_policy_enum import FailurePolicyEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.selector_request import SelectorRequest
    from ..models.waves_request import WavesRequest


T = TypeVar("T", bound="RolloutRequest")


@_attrs_define
class RolloutRequest:
    """Moves the gateways a selector picks to a target release in waves, each gated on the gateways' health; a failed gate
    halts the rollout, and may roll the wave back.

        Attributes:
            name (str):
            target_release (str): The release to move the gateways to (by name); not an Invalid one.
            selector (SelectorRequest | Unset):
            waves (WavesRequest | Unset):
            max_parallel (int | Unset):
            bake_seconds (int | Unset):
            gate_timeout_seconds (int | Unset):
            failure_policy (FailurePolicyEnum | Unset): * `halt` - Halt: stop, leave the wave as it is
                * `halt_and_rollback` - Halt and roll the wave back to its previous release
            require_approval (bool | Unset): Every wave waits for a platform admin's approval of its plan (a cluster's
                rollouts_require_approval asks the same of the waves with gateways on it).
    """

    name: str
    target_release: str
    selector: SelectorRequest | Unset = UNSET
    waves: WavesRequest | Unset = UNSET
    max_parallel: int | Unset = UNSET
    bake_seconds: int | Unset = UNSET
    gate_timeout_seconds: int | Unset = UNSET
    failure_policy: FailurePolicyEnum | Unset = UNSET
    require_approval: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        target_release = self.target_release

        selector: dict[str, Any] | Unset = UNSET
        if not isinstance(self.selector, Unset):
            selector = self.selector.to_dict()

        waves: dict[str, Any] | Unset = UNSET
        if not isinstance(self.waves, Unset):
            waves = self.waves.to_dict()

        max_parallel = self.max_parallel

        bake_seconds = self.bake_seconds

        gate_timeout_seconds = self.gate_timeout_seconds

        failure_policy: str | Unset = UNSET
        if not isinstance(self.failure_policy, Unset):
            failure_policy = self.failure_policy.value

        require_approval = self.require_approval

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "target_release": target_release,
            }
        )
        if selector is not UNSET:
            field_dict["selector"] = selector
        if waves is not UNSET:
            field_dict["waves"] = waves
        if max_parallel is not UNSET:
            field_dict["max_parallel"] = max_parallel
        if bake_seconds is not UNSET:
            field_dict["bake_seconds"] = bake_seconds
        if gate_timeout_seconds is not UNSET:
            field_dict["gate_timeout_seconds"] = gate_timeout_seconds
        if failure_policy is not UNSET:
            field_dict["failure_policy"] = failure_policy
        if require_approval is not UNSET:
            field_dict["require_approval"] = require_approval

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.selector_request import SelectorRequest
        from ..models.waves_request import WavesRequest

        d = dict(src_dict)
        name = d.pop("name")

        target_release = d.pop("target_release")

        _selector = d.pop("selector", UNSET)
        selector: SelectorRequest | Unset
        if isinstance(_selector, Unset):
            selector = UNSET
        else:
            selector = SelectorRequest.from_dict(_selector)

        _waves = d.pop("waves", UNSET)
        waves: WavesRequest | Unset
        if isinstance(_waves, Unset):
            waves = UNSET
        else:
            waves = WavesRequest.from_dict(_waves)

        max_parallel = d.pop("max_parallel", UNSET)

        bake_seconds = d.pop("bake_seconds", UNSET)

        gate_timeout_seconds = d.pop("gate_timeout_seconds", UNSET)

        _failure_policy = d.pop("failure_policy", UNSET)
        failure_policy: FailurePolicyEnum | Unset
        if isinstance(_failure_policy, Unset):
            failure_policy = UNSET
        else:
            failure_policy = FailurePolicyEnum(_failure_policy)

        require_approval = d.pop("require_approval", UNSET)

        rollout_request = cls(
            name=name,
            target_release=target_release,
            selector=selector,
            waves=waves,
            max_parallel=max_parallel,
            bake_seconds=bake_seconds,
            gate_timeout_seconds=gate_timeout_seconds,
            failure_policy=failure_policy,
            require_approval=require_approval,
        )

        return rollout_request
