from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.wave_approval_state_enum import WaveApprovalStateEnum

T = TypeVar("T", bound="ApprovalSummary")


@_attrs_define
class ApprovalSummary:
    """
    Attributes:
        wave (int):
        state (WaveApprovalStateEnum): * `awaiting` - Awaiting
            * `approved` - Approved
            * `rejected` - Rejected
            * `void` - Void
        plan_hash (str): sha256 over each gateway's action, values diff and object diff.
        planned_at (datetime.datetime):
        decided_by (None | str):
        decided_at (datetime.datetime | None):
        reason (str): Why it was rejected, or what voided it.
    """

    wave: int
    state: WaveApprovalStateEnum
    plan_hash: str
    planned_at: datetime.datetime
    decided_by: None | str
    decided_at: datetime.datetime | None
    reason: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        wave = self.wave

        state = self.state.value

        plan_hash = self.plan_hash

        planned_at = self.planned_at.isoformat()

        decided_by: None | str
        decided_by = self.decided_by

        decided_at: None | str
        if isinstance(self.decided_at, datetime.datetime):
            decided_at = self.decided_at.isoformat()
        else:
            decided_at = self.decided_at

        reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "wave": wave,
                "state": state,
                "plan_hash": plan_hash,
                "planned_at": planned_at,
                "decided_by": decided_by,
                "decided_at": decided_at,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        wave = d.pop("wave")

        state = WaveApprovalStateEnum(d.pop("state"))

        plan_hash = d.pop("plan_hash")

        planned_at = datetime.datetime.fromisoformat(d.pop("planned_at"))

        def _parse_decided_by(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        decided_by = _parse_decided_by(d.pop("decided_by"))

        def _parse_decided_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decided_at_type_0 = datetime.datetime.fromisoformat(data)

                return decided_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        decided_at = _parse_decided_at(d.pop("decided_at"))

        reason = d.pop("reason")

        approval_summary = cls(
            wave=wave,
            state=state,
            plan_hash=plan_hash,
            planned_at=planned_at,
            decided_by=decided_by,
            decided_at=decided_at,
            reason=reason,
        )

        approval_summary.additional_properties = d
        return approval_summary

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
