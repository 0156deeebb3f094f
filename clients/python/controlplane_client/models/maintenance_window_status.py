from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="MaintenanceWindowStatus")


@_attrs_define
class MaintenanceWindowStatus:
    """Whether upgrades and rollout waves may start on the cluster now and, if not, when they may next.

    Attributes:
        open_ (bool): Changes may start now.
        next_start (datetime.datetime | None): When changes may next start: now when open; null when no window opens
            within a year.
        message (str):
        override_until (datetime.datetime | None): A platform admin's override holds the cluster open until then.
        override_reason (str):
    """

    open_: bool
    next_start: datetime.datetime | None
    message: str
    override_until: datetime.datetime | None
    override_reason: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        open_ = self.open_

        next_start: None | str
        if isinstance(self.next_start, datetime.datetime):
            next_start = self.next_start.isoformat()
        else:
            next_start = self.next_start

        message = self.message

        override_until: None | str
        if isinstance(self.override_until, datetime.datetime):
            override_until = self.override_until.isoformat()
        else:
            override_until = self.override_until

        override_reason = self.override_reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "open": open_,
                "next_start": next_start,
                "message": message,
                "override_until": override_until,
                "override_reason": override_reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        open_ = d.pop("open")

        def _parse_next_start(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_start_type_0 = datetime.datetime.fromisoformat(data)

                return next_start_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_start = _parse_next_start(d.pop("next_start"))

        message = d.pop("message")

        def _parse_override_until(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                override_until_type_0 = datetime.datetime.fromisoformat(data)

                return override_until_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        override_until = _parse_override_until(d.pop("override_until"))

        override_reason = d.pop("override_reason")

        maintenance_window_status = cls(
            open_=open_,
            next_start=next_start,
            message=message,
            override_until=override_until,
            override_reason=override_reason,
        )

        maintenance_window_status.additional_properties = d
        return maintenance_window_status

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
