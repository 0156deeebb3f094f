from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.delivery_status_enum import DeliveryStatusEnum
from ..models.notification_event_kind_enum import NotificationEventKindEnum
from ..models.notification_severity_enum import NotificationSeverityEnum

T = TypeVar("T", bound="Delivery")


@_attrs_define
class Delivery:
    """One event for one subscription: the v1 payload sent, and the outcome of its attempts. Sent at least once;
    `idempotency_key` is the X-Controlplane-Delivery header of every attempt.

        Attributes:
            id (UUID):
            idempotency_key (UUID):
            subscription (str):
            receiver (str):
            event_kind (NotificationEventKindEnum): * `gateway` - Gateway
                * `catalog` - Catalog
                * `rollout` - Rollout
                * `cluster` - Cluster
                * `release` - Release
            event_id (int):
            object_id (str):
            object_name (str):
            reason (str):
            severity (NotificationSeverityEnum): * `info` - Info
                * `warning` - Warning
                * `critical` - Critical
            status (DeliveryStatusEnum): * `pending` - Pending
                * `sending` - Sending
                * `delivered` - Delivered
                * `failed` - Failed
            attempts (int):
            response_code (int | None):
            last_error (str):
            created_at (datetime.datetime):
            last_attempt_at (datetime.datetime | None):
            next_attempt_at (datetime.datetime | None):
            delivered_at (datetime.datetime | None):
            payload (Any): The v1 payload sent (see README, Notifications).
    """

    id: UUID
    idempotency_key: UUID
    subscription: str
    receiver: str
    event_kind: NotificationEventKindEnum
    event_id: int
    object_id: str
    object_name: str
    reason: str
    severity: NotificationSeverityEnum
    status: DeliveryStatusEnum
    attempts: int
    response_code: int | None
    last_error: str
    created_at: datetime.datetime
    last_attempt_at: datetime.datetime | None
    next_attempt_at: datetime.datetime | None
    delivered_at: datetime.datetime | None
    payload: Any
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        idempotency_key = str(self.idempotency_key)

        subscription = self.subscription

        receiver = self.receiver

        event_kind = self.event_kind.value

        event_id = self.event_id

        object_id = self.object_id

        object_name = self.object_name

        reason = self.reason

        severity = self.severity.value

        status = self.status.value

        attempts = self.attempts

        response_code: int | None
        response_code = self.response_code

        last_error = self.last_error

        created_at = self.created_at.isoformat()

        last_attempt_at: None | str
        if isinstance(self.last_attempt_at, datetime.datetime):
            last_attempt_at = self.last_attempt_at.isoformat()
        else:
            last_attempt_at = self.last_attempt_at

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        delivered_at: None | str
        if isinstance(self.delivered_at, datetime.datetime):
            delivered_at = self.delivered_at.isoformat()
        else:
            delivered_at = self.delivered_at

        payload = self.payload

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "idempotency_key": idempotency_key,
                "subscription": subscription,
                "receiver": receiver,
                "event_kind": event_kind,
                "event_id": event_id,
                "object_id": object_id,
                "object_name": object_name,
                "reason": reason,
                "severity": severity,
                "status": status,
                "attempts": attempts,
                "response_code": response_code,
                "last_error": last_error,
                "created_at": created_at,
                "last_attempt_at": last_attempt_at,
                "next_attempt_at": next_attempt_at,
                "delivered_at": delivered_at,
                "payload": payload,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        idempotency_key = UUID(d.pop("idempotency_key"))

        subscription = d.pop("subscription")

        receiver = d.pop("receiver")

        event_kind = NotificationEventKindEnum(d.pop("event_kind"))

        event_id = d.pop("event_id")

        object_id = d.pop("object_id")

        object_name = d.pop("object_name")

        reason = d.pop("reason")

        severity = NotificationSeverityEnum(d.pop("severity"))

        status = DeliveryStatusEnum(d.pop("status"))

        attempts = d.pop("attempts")

        def _parse_response_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        response_code = _parse_response_code(d.pop("response_code"))

        last_error = d.pop("last_error")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_last_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_attempt_at = _parse_last_attempt_at(d.pop("last_attempt_at"))

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("next_attempt_at"))

        def _parse_delivered_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                delivered_at_type_0 = datetime.datetime.fromisoformat(data)

                return delivered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        delivered_at = _parse_delivered_at(d.pop("delivered_at"))

        payload = d.pop("payload")

        delivery = cls(
            id=id,
            idempotency_key=idempotency_key,
            subscription=subscription,
            receiver=receiver,
            event_kind=event_kind,
            event_id=event_id,
            object_id=object_id,
            object_name=object_name,
            reason=reason,
            severity=severity,
            status=status,
            attempts=attempts,
            response_code=response_code,
            last_error=last_error,
            created_at=created_at,
            last_attempt_at=last_attempt_at,
            next_attempt_at=next_attempt_at,
            delivered_at=delivered_at,
            payload=payload,
        )

        delivery.additional_properties = d
        return delivery

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
