from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.rollout_target_state_enum import RolloutTargetStateEnum

T = TypeVar("T", bound="RolloutTarget")


@_attrs_define
class RolloutTarget:
    """
    Attributes:
        gateway_name (str):
        cluster_name (str):
        wave (int):
        position (int):
        state (RolloutTargetStateEnum): * `pending` - Pending
            * `upgrading` - Upgrading
            * `healthy` - Healthy
            * `failed` - Failed
            * `rolled_back` - Rolled Back
            * `skipped` - Skipped
        previous_release (None | str):
        started_at (datetime.datetime | None):
        finished_at (datetime.datetime | None):
        reason (str):
    """

    gateway_name: str
    cluster_name: str
    wave: int
    position: int
    state: RolloutTargetStateEnum
    previous_release: None | str
    started_at: datetime.datetime | None
    finished_at: datetime.datetime | None
    reason: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        gateway_name = self.gateway_name

        cluster_name = self.cluster_name

        wave = self.wave

        position = self.position

        state = self.state.value

        previous_release: None | str
        previous_release = self.previous_release

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "gateway_name": gateway_name,
                "cluster_name": cluster_name,
                "wave": wave,
                "position": position,
                "state": state,
                "previous_release": previous_release,
                "started_at": started_at,
                "finished_at": finished_at,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        gateway_name = d.pop("gateway_name")

        cluster_name = d.pop("cluster_name")

        wave = d.pop("wave")

        position = d.pop("position")

        state = RolloutTargetStateEnum(d.pop("state"))

        def _parse_previous_release(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        previous_release = _parse_previous_release(d.pop("previous_release"))

        def _parse_started_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)

                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        started_at = _parse_started_at(d.pop("started_at"))

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))

        reason = d.pop("reason")

        rollout_target = cls(
            gateway_name=gateway_name,
            cluster_name=cluster_name,
            wave=wave,
            position=position,
            state=state,
            previous_release=previous_release,
            started_at=started_at,
            finished_at=finished_at,
            reason=reason,
        )

        rollout_target.additional_properties = d
        return rollout_target

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
