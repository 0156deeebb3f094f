from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.rollout_phase_enum import RolloutPhaseEnum

if TYPE_CHECKING:
    from ..models.approval_summary import ApprovalSummary
    from ..models.blocked import Blocked
    from ..models.condition import Condition
    from ..models.total import Total
    from ..models.wave_status import WaveStatus


T = TypeVar("T", bound="RolloutStatus")


@_attrs_define
class RolloutStatus:
    """
    Attributes:
        phase (RolloutPhaseEnum): * `Pending` - Pending
            * `Progressing` - Progressing
            * `AwaitingApproval` - Awaiting Approval
            * `Paused` - Paused
            * `Halted` - Halted
            * `Completed` - Completed
            * `Aborted` - Aborted
        current_wave (int):
        wave_count (int):
        wave_started_at (datetime.datetime | None):
        baking_since (datetime.datetime | None):
        finished_at (datetime.datetime | None):
        conditions (list[Condition]):
        total (Total):
        waves (list[WaveStatus]):
        blocked (list[Blocked]): The gateways that blocked the rollout, and why.
        approval (ApprovalSummary | None): The current wave's plan, when the wave needs approval (its diff: GET
            .../plan/).
    """

    phase: RolloutPhaseEnum
    current_wave: int
    wave_count: int
    wave_started_at: datetime.datetime | None
    baking_since: datetime.datetime | None
    finished_at: datetime.datetime | None
    conditions: list[Condition]
    total: Total
    waves: list[WaveStatus]
    blocked: list[Blocked]
    approval: ApprovalSummary | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.approval_summary import ApprovalSummary

        phase = self.phase.value

        current_wave = self.current_wave

        wave_count = self.wave_count

        wave_started_at: None | str
        if isinstance(self.wave_started_at, datetime.datetime):
            wave_started_at = self.wave_started_at.isoformat()
        else:
            wave_started_at = self.wave_started_at

        baking_since: None | str
        if isinstance(self.baking_since, datetime.datetime):
            baking_since = self.baking_since.isoformat()
        else:
            baking_since = self.baking_since

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        conditions = []
        for conditions_item_data in self.conditions:
            conditions_item = conditions_item_data.to_dict()
            conditions.append(conditions_item)

        total = self.total.to_dict()

        waves = []
        for waves_item_data in self.waves:
            waves_item = waves_item_data.to_dict()
            waves.append(waves_item)

        blocked = []
        for blocked_item_data in self.blocked:
            blocked_item = blocked_item_data.to_dict()
            blocked.append(blocked_item)

        approval: dict[str, Any] | None
        if isinstance(self.approval, ApprovalSummary):
            approval = self.approval.to_dict()
        else:
            approval = self.approval

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "phase": phase,
                "current_wave": current_wave,
                "wave_count": wave_count,
                "wave_started_at": wave_started_at,
                "baking_since": baking_since,
                "finished_at": finished_at,
                "conditions": conditions,
                "total": total,
                "waves": waves,
                "blocked": blocked,
                "approval": approval,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.approval_summary import ApprovalSummary
        from ..models.blocked import Blocked
        from ..models.condition import Condition
        from ..models.total import Total
        from ..models.wave_status import WaveStatus

        d = dict(src_dict)
        phase = RolloutPhaseEnum(d.pop("phase"))

        current_wave = d.pop("current_wave")

        wave_count = d.pop("wave_count")

        def _parse_wave_started_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                wave_started_at_type_0 = datetime.datetime.fromisoformat(data)

                return wave_started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        wave_started_at = _parse_wave_started_at(d.pop("wave_started_at"))

        def _parse_baking_since(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                baking_since_type_0 = datetime.datetime.fromisoformat(data)

                return baking_since_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        baking_since = _parse_baking_since(d.pop("baking_since"))

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

        conditions = []
        _conditions = d.pop("conditions")
        for conditions_item_data in _conditions:
            conditions_item = Condition.from_dict(conditions_item_data)

            conditions.append(conditions_item)

        total = Total.from_dict(d.pop("total"))

        waves = []
        _waves = d.pop("waves")
        for waves_item_data in _waves:
            waves_item = WaveStatus.from_dict(waves_item_data)

            waves.append(waves_item)

        blocked = []
        _blocked = d.pop("blocked")
        for blocked_item_data in _blocked:
            blocked_item = Blocked.from_dict(blocked_item_data)

            blocked.append(blocked_item)

        def _parse_approval(data: object) -> ApprovalSummary | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                approval_type_1 = ApprovalSummary.from_dict(data)

                return approval_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ApprovalSummary | None, data)

        approval = _parse_approval(d.pop("approval"))

        rollout_status = cls(
            phase=phase,
            current_wave=current_wave,
            wave_count=wave_count,
            wave_started_at=wave_started_at,
            baking_since=baking_since,
            finished_at=finished_at,
            conditions=conditions,
            total=total,
            waves=waves,
            blocked=blocked,
            approval=approval,
        )

        rollout_status.additional_properties = d
        return rollout_status

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
