from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.failure_policy_enum import FailurePolicyEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.rollout_status import RolloutStatus
    from ..models.selector import Selector
    from ..models.waves import Waves


T = TypeVar("T", bound="Rollout")


@_attrs_define
class Rollout:
    """Moves the gateways a selector picks to a target release in waves, each gated on the gateways' health; a failed gate
    halts the rollout, and may roll the wave back.

        Attributes:
            id (UUID):
            name (str):
            target_release (str): The release to move the gateways to (by name); not an Invalid one.
            wave_plan (Waves):
            created_by (None | str):
            status (RolloutStatus):
            created_at (datetime.datetime):
            updated_at (datetime.datetime):
            selector (Selector | Unset):
            max_parallel (int | Unset):
            bake_seconds (int | Unset):
            gate_timeout_seconds (int | Unset):
            failure_policy (FailurePolicyEnum | Unset): * `halt` - Halt: stop, leave the wave as it is
                * `halt_and_rollback` - Halt and roll the wave back to its previous release
            require_approval (bool | Unset): Every wave waits for a platform admin's approval of its plan (a cluster's
                rollouts_require_approval asks the same of the waves with gateways on it).
    """

    id: UUID
    name: str
    target_release: str
    wave_plan: Waves
    created_by: None | str
    status: RolloutStatus
    created_at: datetime.datetime
    updated_at: datetime.datetime
    selector: Selector | Unset = UNSET
    max_parallel: int | Unset = UNSET
    bake_seconds: int | Unset = UNSET
    gate_timeout_seconds: int | Unset = UNSET
    failure_policy: FailurePolicyEnum | Unset = UNSET
    require_approval: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        name = self.name

        target_release = self.target_release

        wave_plan = self.wave_plan.to_dict()

        created_by: None | str
        created_by = self.created_by

        status = self.status.to_dict()

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        selector: dict[str, Any] | Unset = UNSET
        if not isinstance(self.selector, Unset):
            selector = self.selector.to_dict()

        max_parallel = self.max_parallel

        bake_seconds = self.bake_seconds

        gate_timeout_seconds = self.gate_timeout_seconds

        failure_policy: str | Unset = UNSET
        if not isinstance(self.failure_policy, Unset):
            failure_policy = self.failure_policy.value

        require_approval = self.require_approval

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "target_release": target_release,
                "wave_plan": wave_plan,
                "created_by": created_by,
                "status": status,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )
        if selector is not UNSET:
            field_dict["selector"] = selector
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
        from ..models.rollout_status import RolloutStatus
        from ..models.selector import Selector
        from ..models.waves import Waves

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        name = d.pop("name")

        target_release = d.pop("target_release")

        wave_plan = Waves.from_dict(d.pop("wave_plan"))

        def _parse_created_by(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        created_by = _parse_created_by(d.pop("created_by"))

        status = RolloutStatus.from_dict(d.pop("status"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        _selector = d.pop("selector", UNSET)
        selector: Selector | Unset
        if isinstance(_selector, Unset):
            selector = UNSET
        else:
            selector = Selector.from_dict(_selector)

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

        rollout = cls(
            id=id,
            name=name,
            target_release=target_release,
            wave_plan=wave_plan,
            created_by=created_by,
            status=status,
            created_at=created_at,
            updated_at=updated_at,
            selector=selector,
            max_parallel=max_parallel,
            bake_seconds=bake_seconds,
            gate_timeout_seconds=gate_timeout_seconds,
            failure_policy=failure_policy,
            require_approval=require_approval,
        )

        rollout.additional_properties = d
        return rollout

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
