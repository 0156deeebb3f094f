"""The notifications console, for platform admins: receivers (URL and secret write-only), subscriptions, and the
delivery log (read-only)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.safestring import SafeString

from controlplane.admin_site import (
    CONSOLE_CSS,
    CONSOLE_JS,
    ERROR,
    INFO,
    MUTED,
    OK,
    WARN,
    PlatformAdminOnly,
    WriteOnlyPasswordInput,
    badge,
    relative_time,
    secret_state,
    write_only_field,
)
from controlplane.audit import audit_save
from notifications.choices import DeliveryStatus, Severity
from notifications.models import Delivery, Receiver, Subscription

__all__ = ["DeliveryAdmin", "ReceiverAdmin", "SubscriptionAdmin"]

STATUS_TONES = {
    DeliveryStatus.PENDING: INFO,
    DeliveryStatus.SENDING: INFO,
    DeliveryStatus.DELIVERED: OK,
    DeliveryStatus.FAILED: ERROR,
}
SEVERITY_TONES = {Severity.INFO: MUTED, Severity.WARNING: WARN, Severity.CRITICAL: ERROR}


class ReceiverForm(forms.ModelForm):
    url = write_only_field(
        WriteOnlyPasswordInput(attrs={"size": 80}), "Write-only: https:// URL; empty keeps the stored one."
    )
    secret = write_only_field(WriteOnlyPasswordInput(), "Write-only: the webhook signing key; empty keeps it.")

    class Meta:
        model = Receiver
        fields = ("name", "kind", "url", "secret", "tenants_may_subscribe")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["url"].required = self.instance._state.adding

    def clean_url(self) -> str:
        return self.cleaned_data["url"] or ("" if self.instance._state.adding else self.instance.url)

    def clean_secret(self) -> str:
        return self.cleaned_data["secret"] or ("" if self.instance._state.adding else self.instance.secret)


@admin.register(Receiver)
class ReceiverAdmin(PlatformAdminOnly, admin.ModelAdmin):
    form = ReceiverForm
    list_display = ("name", "kind", "endpoint", "tenants_may_subscribe", "created_at")
    list_filter = ("kind", "tenants_may_subscribe")
    search_fields = ("name",)
    readonly_fields = ("endpoint", "secret_display")

    @admin.display(description="secret")
    def secret_display(self, obj: Receiver) -> SafeString:
        return secret_state(obj, "secret")

    def save_model(self, request: HttpRequest, obj: Receiver, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        audit_save(request, obj, form, change)


@admin.register(Subscription)
class SubscriptionAdmin(PlatformAdminOnly, admin.ModelAdmin):
    list_display = ("name", "owner", "receiver", "kinds", "reasons", "min_severity", "clusters", "enabled")
    list_filter = ("enabled", "min_severity", "receiver")
    search_fields = ("name", "owner__username")

    def save_model(self, request: HttpRequest, obj: Subscription, form: Any, change: bool) -> None:
        if obj.owner_id is None:
            obj.owner = request.user
        super().save_model(request, obj, form, change)
        audit_save(request, obj, form, change)


@admin.register(Delivery)
class DeliveryAdmin(PlatformAdminOnly, admin.ModelAdmin):
    """The delivery log; read-only."""

    list_display = (
        "object_column",
        "reason",
        "severity_column",
        "receiver",
        "status_column",
        "attempts",
        "response_code",
        "created_display",
        "delivered_display",
    )
    list_filter = ("status", "event_kind", "severity", "receiver")
    search_fields = ("object_name", "reason", "idempotency_key")
    readonly_fields = (
        "idempotency_key",
        "subscription",
        "receiver",
        "owner",
        "event_kind",
        "event_id",
        "object_id",
        "object_name",
        "reason",
        "severity",
        "status",
        "attempts",
        "response_code",
        "last_error",
        "created_at",
        "last_attempt_at",
        "next_attempt_at",
        "delivered_at",
        "payload",
    )
    exclude = ("lease_expires_at",)

    class Media:
        css = CONSOLE_CSS
        js = CONSOLE_JS

    def get_queryset(self, request: HttpRequest) -> QuerySet[Delivery]:
        return super().get_queryset(request).select_related("receiver", "subscription")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    @admin.display(description="object")
    def object_column(self, obj: Delivery) -> SafeString:
        return format_html("{} <strong>{}</strong>", obj.event_kind, obj.object_name)

    @admin.display(description="severity", ordering="severity")
    def severity_column(self, obj: Delivery) -> SafeString:
        return badge(obj.severity, SEVERITY_TONES.get(obj.severity, MUTED))

    @admin.display(description="status", ordering="status")
    def status_column(self, obj: Delivery) -> SafeString:
        return badge(obj.status, STATUS_TONES.get(obj.status, MUTED))

    @admin.display(description="created", ordering="created_at")
    def created_display(self, obj: Delivery) -> SafeString:
        return relative_time(obj.created_at)

    @admin.display(description="delivered", ordering="delivered_at")
    def delivered_display(self, obj: Delivery) -> SafeString:
        return relative_time(obj.delivered_at, empty="-")
