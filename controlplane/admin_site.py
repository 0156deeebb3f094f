"""The web admin console: a customised AdminSite with a dashboard, and the pieces every admin shares.

Installed in place of ``django.contrib.admin`` (``ConsoleAdminConfig``), so ``admin.site`` is the
console and the apps register on it with ``@admin.register`` as usual. Model imports stay inside
functions: this module is imported while the app registry is still loading.

Access: only active staff get in. Superusers are platform admins and see everything. Other staff
are tenants: they see and change their own gateways and read clusters and catalogs, never a secret.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.timesince import timesince

from cluster_vocabulary.kubernetes import ConditionStatus, EventType
from controlplane.api.permissions import is_platform_admin
from controlplane.dashboard import dashboard_context

__all__ = [
    "CONSOLE_CSS",
    "CONSOLE_JS",
    "CONSOLE_MEDIA",
    "ConsoleAdminConfig",
    "ConsoleSite",
    "PlatformAdminOnly",
    "PlatformAdminWritesMixin",
    "WriteOnlyPasswordInput",
    "WriteOnlyTextarea",
    "abnormal_conditions",
    "badge",
    "conditions_table",
    "copyable",
    "events_table",
    "register_abnormal_when_true",
    "relative_time",
    "secret_state",
    "write_only_field",
]

# Badge tones, mapped to colours in controlplane/static/controlplane/console.css.
OK, INFO, WARN, ERROR, MUTED = "ok", "info", "warn", "error", "muted"
CONDITION_TONES: dict[str, str] = {
    ConditionStatus.TRUE: OK,
    ConditionStatus.FALSE: ERROR,
    ConditionStatus.UNKNOWN: MUTED,
}
EVENT_TONES = {EventType.NORMAL: INFO, EventType.WARNING: WARN}
EVENTS_SHOWN = 50

CONSOLE_CSS = {"all": ("controlplane/console.css",)}
CONSOLE_JS = ("controlplane/console.js",)
CONSOLE_MEDIA = forms.Media(css=CONSOLE_CSS, js=CONSOLE_JS)


# Condition types with "abnormal-true" polarity (Flux style): True is the noteworthy state, False is normal. The
# app that owns a type registers it with its tone (``register_abnormal_when_true`` from ``AppConfig.ready``).
_abnormal_when_true: dict[str, str] = {}


def register_abnormal_when_true(tones: Mapping[str, str]) -> None:
    """Show each condition type of ``tones`` in its tone while True, muted while False."""
    _abnormal_when_true.update(tones)


# Display helpers (all return escaped HTML).


def badge(label: str, tone: str) -> SafeString:
    return format_html('<span class="cp-badge cp-badge--{}">{}</span>', tone, label)


def condition_tone(type_: str, status: str) -> str:
    if type_ in _abnormal_when_true:
        return _abnormal_when_true[type_] if status == ConditionStatus.TRUE else MUTED
    return CONDITION_TONES.get(status, MUTED)


def abnormal_conditions(conditions: Iterable[Mapping[str, Any]], first: str = "") -> list[Mapping[str, Any]]:
    """The conditions that explain trouble, the one of type ``first`` (the kind's summary, as Ready) first."""
    found = [c for c in conditions or () if condition_tone(c.get("type", ""), c.get("status", "")) in (ERROR, WARN)]
    return sorted(found, key=lambda c: c.get("type") != first)


def relative_time(value: datetime | None, empty: str = "never") -> SafeString:
    """'3 minutes ago', with the exact UTC time as a tooltip."""
    if value is None:
        return format_html('<span class="cp-muted">{}</span>', empty)
    now = timezone.now()
    if abs((now - value).total_seconds()) < 60:
        phrase = "just now"
    else:
        phrase = f"in {timesince(now, value)}" if value > now else f"{timesince(value, now)} ago"
    return format_html(
        '<time datetime="{}" title="{}">{}</time>',
        value.isoformat(),
        value.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC"),
        phrase,
    )


def copyable(value: str, empty: str = "-") -> SafeString:
    """The value in monospace with a Copy button (controlplane/console.js)."""
    if not value:
        return format_html('<span class="cp-muted">{}</span>', empty)
    return format_html(
        '<span class="cp-copy"><code>{}</code>'
        '<button type="button" class="cp-copy-button" data-copy="{}" title="Copy to the clipboard">Copy</button>'
        "</span>",
        value,
        value,
    )


def conditions_table(conditions: Iterable[Mapping[str, Any]], generation: int) -> SafeString:
    rows = []
    for condition in conditions or ():
        transition = condition.get("lastTransitionTime")
        try:
            when = datetime.fromisoformat(transition) if transition else None
        except ValueError:
            when = None
        status = str(condition.get("status", ConditionStatus.UNKNOWN))
        rows.append(
            {
                "type": condition.get("type", ""),
                "status": badge(status, condition_tone(str(condition.get("type", "")), status)),
                "reason": condition.get("reason", ""),
                "message": condition.get("message", ""),
                "when": relative_time(when, empty=transition or "-"),
                "observed_generation": condition.get("observedGeneration"),
                "stale": (condition.get("observedGeneration") or 0) < generation,
            }
        )
    return render_to_string("admin/controlplane/conditions_table.html", {"rows": rows})


def events_table(events: QuerySet) -> SafeString:
    """The newest events first (the model's default ordering), at most EVENTS_SHOWN of them."""
    shown = list(events.order_by("-timestamp", "-id")[:EVENTS_SHOWN])
    rows = [
        {
            "when": relative_time(event.timestamp),
            "type": badge(event.type, EVENT_TONES.get(event.type, MUTED)),
            "reason": event.reason,
            "message": event.message,
        }
        for event in shown
    ]
    total = events.count() if len(shown) == EVENTS_SHOWN else len(shown)
    return render_to_string("admin/controlplane/events_table.html", {"rows": rows, "total": total})


# Write-only secrets: the stored value is never rendered, and an empty field keeps it.


class WriteOnlyTextarea(forms.Textarea):
    def format_value(self, value: Any) -> None:
        return None


class WriteOnlyPasswordInput(forms.PasswordInput):
    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs={"autocomplete": "new-password", **(attrs or {})}, render_value=False)


def write_only_field(widget: forms.Widget, help_text: str) -> forms.CharField:
    return forms.CharField(widget=widget, required=False, strip=False, help_text=help_text)


def secret_state(instance: Model, field: str) -> SafeString:
    """What a reader may know about a secret: whether one is stored."""
    if getattr(instance, field, ""):
        return badge("stored", INFO)
    return format_html('<span class="cp-muted">{}</span>', "not set")


class PlatformAdminWritesMixin:
    """Staff may read; only platform admins (superusers) may add, change or delete."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.is_active and request.user.is_staff

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return request.user.is_active and request.user.is_staff

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return is_platform_admin(request.user)

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return is_platform_admin(request.user)

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return is_platform_admin(request.user)


class PlatformAdminOnly:
    """Only platform admins (superusers) see these pages and work on them (releases, rollouts, notifications); they
    delete too, unless the admin sets ``deletable`` False."""

    deletable = True

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_platform_admin(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return is_platform_admin(request.user)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return is_platform_admin(request.user)

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return is_platform_admin(request.user)

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return self.deletable and is_platform_admin(request.user)


# The site and its dashboard: the apps register their panels (controlplane.dashboard).


def console_context(request: HttpRequest) -> dict[str, Any]:
    """The dashboard's own context (the clusters), then the panels the apps register (``controlplane.dashboard``)."""
    from controlplane.models import ManagedCluster

    context: dict[str, Any] = {"console_media": CONSOLE_MEDIA}
    if request.user.is_staff:
        clusters = ManagedCluster.objects.all()
        context.update(
            cluster_total=clusters.count(),
            clusters_unreachable=list(clusters.filter(reachable=False).values_list("name", flat=True)),
        )
    return {**context, **dashboard_context(request)}


class ConsoleSite(admin.AdminSite):
    site_header = "Control plane console"
    site_title = "Control plane console"
    index_title = "Dashboard"
    index_template = "admin/controlplane/dashboard.html"

    def index(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> TemplateResponse:
        return super().index(request, {**console_context(request), **(extra_context or {})})


class ConsoleAdminConfig(AdminConfig):
    """Replaces ``django.contrib.admin`` in INSTALLED_APPS so that ``admin.site`` is the console."""

    default_site = "controlplane.admin_site.ConsoleSite"
