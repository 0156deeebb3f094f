from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.reason_enum import ReasonEnum
from ..models.release_status_enum import ReleaseStatusEnum

T = TypeVar("T", bound="ReleaseStatus")


@_attrs_define
class ReleaseStatus:
    """
    Attributes:
        status (ReleaseStatusEnum): * `Pending` - Pending
            * `Ready` - Ready
            * `Invalid` - Invalid
        reason (None | ReasonEnum): Why a release is still Pending: ChartUnavailable while its chart cannot be pulled
            (retried with backoff); null otherwise.

            * `ChartUnavailable` - Chart Unavailable
        message (str): Why the release is Invalid, or why its chart is unavailable.
        chart_version (str): The version in the loaded chart's Chart.yaml.
        validated_at (datetime.datetime | None):
    """

    status: ReleaseStatusEnum
    reason: None | ReasonEnum
    message: str
    chart_version: str
    validated_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status.value

        reason: None | str
        if isinstance(self.reason, ReasonEnum):
            reason = self.reason.value
        else:
            reason = self.reason

        message = self.message

        chart_version = self.chart_version

        validated_at: None | str
        if isinstance(self.validated_at, datetime.datetime):
            validated_at = self.validated_at.isoformat()
        else:
            validated_at = self.validated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "reason": reason,
                "message": message,
                "chart_version": chart_version,
                "validated_at": validated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        status = ReleaseStatusEnum(d.pop("status"))

        def _parse_reason(data: object) -> None | ReasonEnum:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reason_type_1 = ReasonEnum(data)

                return reason_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ReasonEnum, data)

        reason = _parse_reason(d.pop("reason"))

        message = d.pop("message")

        chart_version = d.pop("chart_version")

        def _parse_validated_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                validated_at_type_0 = datetime.datetime.fromisoformat(data)

                return validated_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        validated_at = _parse_validated_at(d.pop("validated_at"))

        release_status = cls(
            status=status,
            reason=reason,
            message=message,
            chart_version=chart_version,
            validated_at=validated_at,
        )

        release_status.additional_properties = d
        return release_status

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
