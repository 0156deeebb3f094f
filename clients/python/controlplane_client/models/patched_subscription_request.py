from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.notification_event_kind_enum import NotificationEventKindEnum
from ..models.notification_severity_enum import NotificationSeverityEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.patched_subscription_request_labels import (
        PatchedSubscriptionRequestLabels,
    )


T = TypeVar("T", bound="PatchedSubscriptionRequest")


@_attrs_define
class PatchedSubscriptionRequest:
    """Which recorded events go to a receiver; every filter is optional. Tenants subscribe to their own gateways' events
    only.

        Attributes:
            name (str | Unset):
            receiver (str | Unset): A receiver's name (tenants: one a platform admin opened to tenants).
            kinds (list[NotificationEventKindEnum] | Unset): Empty for every kind (tenants: gateway only).
            reasons (list[str] | Unset): Event reasons, e.g. InstallFailed, GateFailed, AwaitingApproval.
            min_severity (NotificationSeverityEnum | Unset): * `info` - Info
                * `warning` - Warning
                * `critical` - Critical
            clusters (list[str] | Unset): Cluster names; an event without a cluster never matches these.
            labels (PatchedSubscriptionRequestLabels | Unset): The gateway or catalog must carry all these labels.
            gateways (list[str] | Unset): Gateway ids; empty for all (a tenant's: all of their own).
            enabled (bool | Unset):
    """

    name: str | Unset = UNSET
    receiver: str | Unset = UNSET
    kinds: list[NotificationEventKindEnum] | Unset = UNSET
    reasons: list[str] | Unset = UNSET
    min_severity: NotificationSeverityEnum | Unset = UNSET
    clusters: list[str] | Unset = UNSET
    labels: PatchedSubscriptionRequestLabels | Unset = UNSET
    gateways: list[str] | Unset = UNSET
    enabled: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        receiver = self.receiver

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

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if receiver is not UNSET:
            field_dict["receiver"] = receiver
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
        from ..models.patched_subscription_request_labels import (
            PatchedSubscriptionRequestLabels,
        )

        d = dict(src_dict)
        name = d.pop("name", UNSET)

        receiver = d.pop("receiver", UNSET)

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
        labels: PatchedSubscriptionRequestLabels | Unset
        if isinstance(_labels, Unset):
            labels = UNSET
        else:
            labels = PatchedSubscriptionRequestLabels.from_dict(_labels)

        gateways = cast(list[str], d.pop("gateways", UNSET))

        enabled = d.pop("enabled", UNSET)

        patched_subscription_request = cls(
            name=name,
            receiver=receiver,
            kinds=kinds,
            reasons=reasons,
            min_severity=min_severity,
            clusters=clusters,
            labels=labels,
            gateways=gateways,
            enabled=enabled,
        )

        return patched_subscription_request
