from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.event_type_enum import EventTypeEnum

T = TypeVar("T", bound="ReleaseEvent")


@_attrs_define
class ReleaseEvent:
    """What the release's verification found: a failure is a Warning with reason VerificationFailed.

    Attributes:
        timestamp (datetime.datetime):
        type_ (EventTypeEnum): * `Normal` - Normal
            * `Warning` - Warning
        reason (str):
        message (str):
    """

    timestamp: datetime.datetime
    type_: EventTypeEnum
    reason: str
    message: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        timestamp = self.timestamp.isoformat()

        type_ = self.type_.value

        reason = self.reason

        message = self.message

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "timestamp": timestamp,
                "type": type_,
                "reason": reason,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        type_ = EventTypeEnum(d.pop("type"))

        reason = d.pop("reason")

        message = d.pop("message")

        release_event = cls(
            timestamp=timestamp,
            type_=type_,
            reason=reason,
            message=message,
        )

        release_event.additional_properties = d
        return release_event

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
