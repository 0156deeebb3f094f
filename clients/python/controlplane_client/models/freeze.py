from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="Freeze")


@_attrs_define
class Freeze:
    """A freeze: recurring (cron, duration, timezone) or fixed (start and end, with offsets).

    Attributes:
        cron (str | Unset): As in a window.
        duration (str | Unset): As in a window.
        timezone (str | Unset): As in a window.
        start (str | Unset): ISO 8601 with an offset.
        end (str | Unset): ISO 8601 with an offset; after start.
    """

    cron: str | Unset = UNSET
    duration: str | Unset = UNSET
    timezone: str | Unset = UNSET
    start: str | Unset = UNSET
    end: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cron = self.cron

        duration = self.duration

        timezone = self.timezone

        start = self.start

        end = self.end

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if cron is not UNSET:
            field_dict["cron"] = cron
        if duration is not UNSET:
            field_dict["duration"] = duration
        if timezone is not UNSET:
            field_dict["timezone"] = timezone
        if start is not UNSET:
            field_dict["start"] = start
        if end is not UNSET:
            field_dict["end"] = end

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        cron = d.pop("cron", UNSET)

        duration = d.pop("duration", UNSET)

        timezone = d.pop("timezone", UNSET)

        start = d.pop("start", UNSET)

        end = d.pop("end", UNSET)

        freeze = cls(
            cron=cron,
            duration=duration,
            timezone=timezone,
            start=start,
            end=end,
        )

        freeze.additional_properties = d
        return freeze

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
