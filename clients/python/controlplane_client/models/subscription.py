from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.notification_event_kind_enum import NotificationEventKindEnum
from ..models.notification_severity_enum import NotificationSeverityEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.subscription_labels import SubscriptionLabels


T = TypeVar("T", bound="Subscription")


@_attrs_define
class Subscription:
    """Which recorded events go to a receiver; every filter is optional. Tenants subscribe to their own gateways' events
    only.

        Attributes:
            id (UUID):
            name (str):
            owner (str): Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only.
            receiver (str): A receiver's name (tenants: one a platform admin opened to tenants).
            created_at (datetime.datetime):
            updated_at (datetime.datetime):
            kinds (list[NotificationEventKindEnum] | Unset): Empty for every kind (tenants: gateway only).
            reasons (list[str] | Unset): Event reasons, e.g. InstallFailed, GateFailed, AwaitingApproval.
            min_severity (NotificationSeverityEnum | Unset): * `info` - Info
                * `warning` - Warning
                * `critical` - Critical
            clusters (list[str] | Unset): Cluster names; an event without a cluster never matches these.
            labels (SubscriptionLabels | Unset): The gateway or catalog must carry all these labels.
            gateways (list[str] | Unset): Gateway ids; empty for all (a tenant's: all of their own).
            enabled (bool | Unset):
    """

    id: UUID
    name: str
    owner: str
    receiver: str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    kinds: list[NotificationEventKindEnum] | Unset = UNSET
    reasons: list[str] | Unset = UNSET
    min_severity: NotificationSeverityEnum | Unset = UNSET
    clusters: list[str] | Unset = UNSET
    labels: SubscriptionLabels | Unset = UNSET
    gateways: list[str] | Unset = UNSET
    enabled: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        name = self.name

        owner = self.owner

        receiver = self.receiver

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        kinds: list[str] | Unset = UNSET
        if not isinstance(self.kinds, Unset):
            kinds = []
            for kinds_item_data in self.kinds:
                kinds_item = kinds_item_data.value
                kinds.append(kinds_item)

        reasons: list[str] | Unset = UNSET
        if not isinstance(self.reasons, Unset):
            reasons = self.reasons

        min_severity: str | Unset = UNSET
        if not isinstance(self.min_severity, Unset):
            min_severity = self.min_severity.value

        clusters: list[str] | Unset = UNSET
        if not isinstance(self.clusters, Unset):
            clusters = self.clusters

        labels: dict[str, Any] | Unset = UNSET
        if not isinstance(self.labels, Unset):
            labels = self.labels.to_dict()

        gateways: list[str] | Unset = UNSET
        if not isinstance(self.gateways, Unset):
            gateways = self.gateways

        enabled = self.enabled

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "owner": owner,
                "receiver": receiver,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )
        if kinds is not UNSET:
            field_dict["kinds"] = kinds
        if reasons is not UNSET:
            field_dict["reasons"] = reasons
        if min_severity is not UNSET:
            field_dict["min_severity"] = min_severity
        if clusters is not UNSET:
            field_dict["clusters"] = clusters
        if labels is not UNSET:
            field_dict["labels"] = labels
        if gateways is not UNSET:
            field_dict["gateways"] = gateways
        if enabled is not UNSET:
            field_dict["enabled"] = enabled

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.subscription_labels import SubscriptionLabels

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        name = d.pop("name")

        owner = d.pop("owner")

        receiver = d.pop("receiver")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        _kinds = d.pop("kinds", UNSET)
        kinds: list[NotificationEventKindEnum] | Unset = UNSET
        if _kinds is not UNSET:
            kinds = []
            for kinds_item_data in _kinds:
                kinds_item = NotificationEventKindEnum(kinds_item_data)

                kinds.append(kinds_item)

        reasons = cast(list[str], d.pop("reasons", UNSET))

        _min_severity = d.pop("min_severity", UNSET)
        min_severity: NotificationSeverityEnum | Unset
        if isinstance(_min_severity, Unset):
            min_severity = UNSET
        else:
            min_severity = NotificationSeverityEnum(_min_severity)

        clusters = cast(list[str], d.pop("clusters", UNSET))

        _labels = d.pop("labels", UNSET)
        labels: SubscriptionLabels | Unset
        if isinstance(_labels, Unset):
            labels = UNSET
        else:
            labels = SubscriptionLabels.from_dict(_labels)

        gateways = cast(list[str], d.pop("gateways", UNSET))

        enabled = d.pop("enabled", UNSET)

        subscription = cls(
            id=id,
            name=name,
            owner=owner,
            receiver=receiver,
            created_at=created_at,
            updated_at=updated_at,
            kinds=kinds,
            reasons=reasons,
            min_severity=min_severity,
            clusters=clusters,
            labels=labels,
            gateways=gateways,
            enabled=enabled,
        )

        subscription.additional_properties = d
        return subscription

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
