"""Receivers (platform admins), subscriptions (anyone, tenants to their own gateways), the outbox of events
waiting to be matched, and the delivery log."""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from controlplane.fields import EncryptedTextField
from controlplane.validators import validate_dns1123_label, validate_labels, validate_url_text
from notifications.choices import DeliveryStatus, EventKind, ReceiverKind, Severity
from notifications.transport import RefusedUrl, TransportPolicy, check_url, origin

__all__ = ["Delivery", "PendingEvent", "Receiver", "Subscription", "transport_policy"]

SECRET_MIN_CHARS = 16
MAX_FILTER_ITEMS = 100


def transport_policy() -> TransportPolicy:
    """The SSRF rules and timing in force, from the settings."""
    return TransportPolicy(
        allow_private=settings.NOTIFICATIONS_ALLOW_PRIVATE_ADDRESSES,
        allowed_networks=settings.NOTIFICATIONS_ALLOWED_NETWORKS,
        allow_http=settings.NOTIFICATIONS_ALLOW_HTTP or settings.NOTIFICATIONS_ALLOW_PRIVATE_ADDRESSES,
        timeout=settings.NOTIFICATIONS_TIMEOUT_SECONDS,
        max_redirects=settings.NOTIFICATIONS_MAX_REDIRECTS,
    )


class Receiver(models.Model):
    """Where notifications go. The URL and the signing secret are encrypted at rest and never shown."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=63, unique=True, validators=[validate_dns1123_label])
    kind = models.CharField(max_length=16, choices=ReceiverKind.choices, default=ReceiverKind.WEBHOOK)
    url = EncryptedTextField(
        max_length=2048,
        validators=[validate_url_text],
        help_text="https:// URL; write-only (a Slack URL holds its token).",
    )
    secret = EncryptedTextField(
        blank=True,
        max_length=256,
        help_text=f"Webhooks: the HMAC-SHA256 signing key, at least {SECRET_MIN_CHARS} characters; write-only.",
    )
    tenants_may_subscribe = models.BooleanField(
        default=False,
        help_text="Whether tenants may point their gateways' subscriptions at this receiver.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("name",)

    def __str__(self) -> str:
        return self.name

    @classmethod
    def from_db(cls, db: str | None, field_names: Any, values: Any) -> Receiver:
        instance = super().from_db(db, field_names, values)
        instance._loaded_url = instance.url
        return instance

    @property
    def endpoint(self) -> str:
        """The URL without its path: enough to recognise it, nothing secret."""
        return origin(self.url) if self.url else ""

    def clean(self) -> None:
        """A new or changed URL is checked against the SSRF rules (resolving its host); every delivery checks again."""
        errors: dict[str, Any] = {}
        if self._state.adding or self.url != getattr(self, "_loaded_url", None):
            try:
                check_url(self.url, transport_policy())
            except RefusedUrl as exc:
                errors["url"] = ValidationError(f"Receiver URL refused: {exc}.", code="refused_url")
        if self.kind == ReceiverKind.WEBHOOK and len(self.secret or "") < SECRET_MIN_CHARS:
            errors["secret"] = f"A webhook needs a signing secret of at least {SECRET_MIN_CHARS} characters."
        if errors:
            raise ValidationError(errors)


def _validate_string_list(value: Any) -> None:
    if not isinstance(value, list) or not all(isinstance(item, str) and 0 < len(item) <= 253 for item in value):
        raise ValidationError("Expected a list of non-empty strings.", code="invalid")
    if len(value) > MAX_FILTER_ITEMS:
        raise ValidationError(f"At most {MAX_FILTER_ITEMS} items.", code="invalid")


class Subscription(models.Model):
    """Which events go to a receiver. A tenant's subscription sees only the tenant's own gateways' events."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="subscriptions")
    name = models.CharField(max_length=63, validators=[validate_dns1123_label])
    receiver = models.ForeignKey(Receiver, on_delete=models.PROTECT, related_name="subscriptions")
    kinds = models.JSONField(
        default=list,
        blank=True,
        validators=[_validate_string_list],
        help_text="Event kinds (gateway, catalog, rollout, cluster); empty for all.",
    )
    reasons = models.JSONField(
        default=list,
        blank=True,
        validators=[_validate_string_list],
        help_text="Event reasons, such as InstallFailed or SignatureInvalid; empty for all.",
    )
    min_severity = models.CharField(max_length=16, choices=Severity.choices, default=Severity.INFO)
    clusters = models.JSONField(
        default=list,
        blank=True,
        validators=[_validate_string_list],
        help_text="Cluster names; empty for all. Catalog events have no cluster.",
    )
    labels = models.JSONField(
        default=dict,
        blank=True,
        validators=[validate_labels],
        help_text="The object must carry all these labels (gateways and catalogs).",
    )
    # Ids, not a relation: a deleted gateway stays in the filter (matching nothing), rather than leaving it empty,
    # which would match every gateway.
    gateways = models.JSONField(
        default=list,
        blank=True,
        validators=[_validate_string_list],
        help_text="Gateway ids; only these gateways. Empty for all (a tenant's: their own).",
    )
    enabled = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("name",)
        constraints = [models.UniqueConstraint(fields=("owner", "name"), name="one_subscription_name_per_owner")]

    def __str__(self) -> str:
        return self.name

    @property
    def for_tenant(self) -> bool:
        return not (self.owner.is_superuser and self.owner.is_active)

    def clean(self) -> None:
        errors: dict[str, Any] = {}
        unknown = sorted(set(self.kinds or []) - set(EventKind.values)) if isinstance(self.kinds, list) else []
        if unknown:
            errors["kinds"] = f"Unknown kinds {', '.join(unknown)}; use {', '.join(EventKind.values)}."
        if self.owner_id is not None and self.for_tenant:
            others = sorted(set(self.kinds or []) - {EventKind.GATEWAY}) if isinstance(self.kinds, list) else []
            if others and "kinds" not in errors:
                errors["kinds"] = (
                    f"Tenants may subscribe only to their own gateways' events; {', '.join(others)} "
                    "events are for platform admins."
                )
            if self.receiver_id is not None and not self.receiver.tenants_may_subscribe:
                errors["receiver"] = f"Receiver {self.receiver.name} is not open to tenants; ask a platform admin."
        if errors:
            raise ValidationError(errors)


class PendingEvent(models.Model):
    """The outbox: an event recorded in the same transaction, not yet matched against the subscriptions."""

    kind = models.CharField(max_length=16, choices=EventKind.choices)
    event_id = models.BigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ("id",)
        constraints = [models.UniqueConstraint(fields=("kind", "event_id"), name="one_pending_row_per_event")]


class Delivery(models.Model):
    """One event for one subscription: its payload, and every attempt's outcome."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    idempotency_key = models.UUIDField(unique=True, editable=False)
    subscription = models.ForeignKey(Subscription, on_delete=models.CASCADE, related_name="deliveries")
    receiver = models.ForeignKey(Receiver, on_delete=models.CASCADE, related_name="deliveries")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    event_kind = models.CharField(max_length=16, choices=EventKind.choices)
    event_id = models.BigIntegerField()
    object_id = models.CharField(max_length=64)
    object_name = models.CharField(max_length=253)
    reason = models.CharField(max_length=64)
    severity = models.CharField(max_length=16, choices=Severity.choices)
    payload = models.JSONField()
    status = models.CharField(max_length=16, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    response_code = models.PositiveIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=1024, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-id")
        verbose_name_plural = "deliveries"
        indexes = [models.Index(fields=("status", "next_attempt_at"), name="delivery_due")]

    def __str__(self) -> str:
        return f"{self.event_kind} {self.object_name} {self.reason} -> {self.receiver_id}"
