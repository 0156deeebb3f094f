from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RecurringWindowRequest")


@_attrs_define
class RecurringWindowRequest:
    """Opens at each time the cron expression names on the wall clock of the time zone, for the duration (elapsed time).

    Attributes:
        cron (str): Five fields: minute hour day-of-month month day-of-week.
        duration (str): How long it stays open: '90m', '4h', '1h30m', '2d'; at most 31d.
        timezone (str): An IANA time zone, such as Europe/Berlin or UTC.
    """

    cron: str
    duration: str
    timezone: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cron = self.cron

        duration = self.duration

        timezone = self.timezone

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cron": cron,
                "duration": duration,
                "timezone": timezone,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        cron = d.pop("cron")

        duration = d.pop("duration")

        timezone = d.pop("timezone")

        recurring_window_request = cls(
            cron=cron,
            duration=duration,
            timezone=timezone,
        )

        recurring_window_request.additional_properties = d
        return recurring_window_request

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
