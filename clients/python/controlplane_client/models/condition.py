from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.condition_status_enum import ConditionStatusEnum

T = TypeVar("T", bound="Condition")


@_attrs_define
class Condition:
    """
    Attributes:
        type_ (str):
        status (ConditionStatusEnum): * `True` - True
            * `False` - False
            * `Unknown` - Unknown
        reason (str):
        message (str):
        last_transition_time (datetime.datetime):
        observed_generation (int):
    """

    type_: str
    status: ConditionStatusEnum
    reason: str
    message: str
    last_transition_time: datetime.datetime
    observed_generation: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        status = self.status.value

        reason = self.reason

        message = self.message

        last_transition_time = self.last_transition_time.isoformat()

        observed_generation = self.observed_generation

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "status": status,
                "reason": reason,
                "message": message,
                "lastTransitionTime": last_transition_time,
                "observedGeneration": observed_generation,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = d.pop("type")

        status = ConditionStatusEnum(d.pop("status"))

        reason = d.pop("reason")

        message = d.pop("message")

        last_transition_time = datetime.datetime.fromisoformat(
            d.pop("lastTransitionTime")
        )

        observed_generation = d.pop("observedGeneration")

        condition = cls(
            type_=type_,
            status=status,
            reason=reason,
            message=message,
            last_transition_time=last_transition_time,
            observed_generation=observed_generation,
        )

        condition.additional_properties = d
        return condition

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
