from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.reason_enum import ReasonEnum
from ..models.release_status_enum import ReleaseStatusEnum

if TYPE_CHECKING:
    from ..models.condition import Condition
    from ..models.verified_digests import VerifiedDigests


T = TypeVar("T", bound="ReleaseStatus")


@_attrs_define
class ReleaseStatus:
    """
    Attributes:
        status (ReleaseStatusEnum): * `Pending` - Pending
            * `Ready` - Ready
            * `Invalid` - Invalid
        reason (None | ReasonEnum): Why a release is still Pending: ChartUnavailable while its chart cannot be pulled,
            RegistryUnavailable while its signatures cannot be checked (both retried with backoff); VerificationFailed when
            it is Invalid because an artefact did not verify (message names it); null otherwise.

            * `ChartUnavailable` - Chart Unavailable
            * `RegistryUnavailable` - Registry Unavailable
            * `VerificationFailed` - Verification Failed
            * `Verified` - Verified
        message (str): Why the release is Invalid, or why its chart is unavailable.
        chart_version (str): The version in the loaded chart's Chart.yaml.
        validated_at (datetime.datetime | None):
        conditions (list[Condition]): Verified (releases with a signature_policy): True once verified with the current
            keys; False when a change of keys no longer verifies what it pinned (its gateways get no upgrade from it),
            Unknown while the registry cannot be asked.
        verified_digests (None | VerifiedDigests): What the worker verified before the release became Ready: the digests
            its gateways run (repo@sha256:...), the key that verified them, and when; null when nothing was verified.
    """

    status: ReleaseStatusEnum
    reason: None | ReasonEnum
    message: str
    chart_version: str
    validated_at: datetime.datetime | None
    conditions: list[Condition]
    verified_digests: None | VerifiedDigests
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.verified_digests import VerifiedDigests

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

        conditions = []
        for conditions_item_data in self.conditions:
            conditions_item = conditions_item_data.to_dict()
            conditions.append(conditions_item)

        verified_digests: dict[str, Any] | None
        if isinstance(self.verified_digests, VerifiedDigests):
            verified_digests = self.verified_digests.to_dict()
        else:
            verified_digests = self.verified_digests

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "reason": reason,
                "message": message,
                "chart_version": chart_version,
                "validated_at": validated_at,
                "conditions": conditions,
                "verified_digests": verified_digests,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.condition import Condition
        from ..models.verified_digests import VerifiedDigests

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

        conditions = []
        _conditions = d.pop("conditions")
        for conditions_item_data in _conditions:
            conditions_item = Condition.from_dict(conditions_item_data)

            conditions.append(conditions_item)

        def _parse_verified_digests(data: object) -> None | VerifiedDigests:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                verified_digests_type_1 = VerifiedDigests.from_dict(data)

                return verified_digests_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | VerifiedDigests, data)

        verified_digests = _parse_verified_digests(d.pop("verified_digests"))

        release_status = cls(
            status=status,
            reason=reason,
            message=message,
            chart_version=chart_version,
            validated_at=validated_at,
            conditions=conditions,
            verified_digests=verified_digests,
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
