from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.rollout_target_state_enum import RolloutTargetStateEnum

T = TypeVar("T", bound="Blocked")


@_attrs_define
class Blocked:
    """
    Attributes:
        gateway (str):
        cluster (str):
        wave (int):
        state (RolloutTargetStateEnum): * `pending` - Pending
            * `upgrading` - Upgrading
            * `healthy` - Healthy
            * `failed` - Failed
            * `rolled_back` - Rolled Back
            * `skipped` - Skipped
        reason (str):
    """

    gateway: str
    cluster: str
    wave: int
    state: RolloutTargetStateEnum
    reason: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        gateway = self.gateway

        cluster = self.cluster

        wave = self.wave

        state = self.state.value

        reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "gateway": gateway,
                "cluster": cluster,
                "wave": wave,
                "state": state,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        gateway = d.pop("gateway")

        cluster = d.pop("cluster")

        wave = d.pop("wave")

        state = RolloutTargetStateEnum(d.pop("state"))

        reason = d.pop("reason")

        blocked = cls(
            gateway=gateway,
            cluster=cluster,
            wave=wave,
            state=state,
            reason=reason,
        )

        blocked.additional_properties = d
        return blocked

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
