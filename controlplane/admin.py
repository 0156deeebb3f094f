"""The cluster console. The kubeconfig is write-only: never rendered back, kept when left empty.

Platform admins (superusers) add and change clusters; other staff may read the list and the
probe status, never a credential.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from controlplane.admin_site import (
    CONSOLE_CSS,
    CONSOLE_JS,
    ERROR,
    MUTED,
    OK,
    PlatformAdminWritesMixin,
    WriteOnlyTextarea,
    badge,
    events_table,
    relative_time,
    secret_state,
    write_only_field,
)
from controlplane.audit import audit_save
from controlplane.capabilities import REQUIRED_APIS
from controlplane.dispatch import enqueue_on_commit
from controlplane.models import AuditEntry, ManagedCluster
from controlplane.tasks import TaskName
from controlplane.window_override import wake_held_gateways

__all__ = ["ManagedClusterAdmin"]


def reachable_badge(cluster: ManagedCluster) -> SafeString:
    if cluster.reachable is None:
        return badge("Unknown", MUTED)
    return badge("Reachable", OK) if cluster.reachable else badge("Unreachable", ERROR)


def window_badge(cluster: ManagedCluster) -> SafeString:
    """Open now, or closed until the next window (with its start)."""
    status = cluster.maintenance_status
    if status["open"]:
        return badge("Overridden" if status["override_until"] else "Open", OK)
    if status["next_start"] is None:
        return badge("Closed", ERROR)
    return format_html("{} next: {}", badge("Closed", MUTED), status["next_start"].isoformat())


def windows_table(cluster: ManagedCluster) -> SafeString:
    """The cluster's windows and freezes, one row each, then the verdict now and any override."""
    data = cluster.maintenance_windows or {}
    rows = [("window", f"{w['cron']} for {w['duration']} ({w['timezone']})") for w in data.get("windows", [])]
    for freeze in data.get("freezes", []):
        text = (
            f"{freeze['start']} until {freeze['end']}"
            if "start" in freeze
            else f"{freeze['cron']} for {freeze['duration']} ({freeze['timezone']})"
        )
        rows.append(("freeze", text))
    if data.get("hold_installs_and_deletes"):
        rows.append(("holds", "new installs and deletes wait too"))
    status = cluster.maintenance_status
    rows.append(("now", status["message"]))
    if status["override_until"]:
        rows.append(("override", f"until {status['override_until'].isoformat()}: {status['override_reason']}"))
    return format_html(
        '<table class="cp-windows"><tbody>{}</tbody></table>',
        format_html_join("", "<tr><th>{}</th><td>{}</td></tr>", rows),
    )


def capability_badges(cluster: ManagedCluster) -> SafeString:
    """One badge per optional API: served, not served, or not probed yet."""
    known = cluster.capabilities or {}

    def served(name: str) -> SafeString:
        if name not in known:
            return badge("Unknown", MUTED)
        return badge("Served", OK) if known[name] else badge("Not served", ERROR)

    return format_html_join(" ", "{}: {}", ((api.label, served(api.capability)) for api in REQUIRED_APIS))


class ManagedClusterForm(forms.ModelForm):
    kubeconfig = write_only_field(
        WriteOnlyTextarea(attrs={"rows": 8, "placeholder": "Paste a kubeconfig; empty keeps the stored one."}),
        "Write-only: the stored kubeconfig is never shown.",
    )

    class Meta:
        model = ManagedCluster
        fields = "__all__"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "kubeconfig" in self.fields:
            self.fields["kubeconfig"].required = self.instance._state.adding

    def clean_kubeconfig(self) -> str:
        value = self.cleaned_data["kubeconfig"]
        return value or ("" if self.instance._state.adding else self.instance.kubeconfig)


@admin.register(ManagedCluster)
class ManagedClusterAdmin(PlatformAdminWritesMixin, admin.ModelAdmin):
    form = ManagedClusterForm
    list_display = (
        "name",
        "flavour",
        "reachable_column",
        "kubernetes_version",
        "probed_column",
        "gateway_count",
        "window_column",
        "base_domain",
    )
    list_filter = ("flavour", "reachable")
    search_fields = ("name", "base_domain")
    ordering = ("name",)
    actions = ("probe_action",)

    class Media:
        css = CONSOLE_CSS
        js = CONSOLE_JS

    def get_queryset(self, request: HttpRequest) -> QuerySet[ManagedCluster]:
        return super().get_queryset(request).annotate(gateway_total=Count("gateways"))

    @admin.display(description="Reachable", ordering="reachable")
    def reachable_column(self, obj: ManagedCluster) -> SafeString:
        return reachable_badge(obj)

    @admin.display(description="Last probe", ordering="last_probe_at")
    def probed_column(self, obj: ManagedCluster) -> SafeString:
        return relative_time(obj.last_probe_at)

    @admin.display(description="Maintenance window")
    def window_column(self, obj: ManagedCluster) -> SafeString:
        return window_badge(obj)

    @admin.display(description="Gateways", ordering="gateway_total")
    def gateway_count(self, obj: ManagedCluster) -> int:
        return obj.gateway_total

    def get_fieldsets(
        self, request: HttpRequest, obj: ManagedCluster | None = None
    ) -> list[tuple[str | None, dict[str, Any]]]:
        editable = self.has_change_permission(request, obj)
        fieldsets: list[tuple[str | None, dict[str, Any]]] = [
            (
                None,
                {
                    "fields": (
                        "name",
                        "flavour",
                        "base_domain",
                        "allowed_route_domains",
                        "gateway_api",
                        "network_policy",
                    )
                },
            ),
            ("Access", {"fields": ("kubeconfig" if editable else "kubeconfig_state", "trusted_ca_pem")}),
            (
                "Image policy",
                {
                    "fields": ("image_policy",),
                    "description": (
                        'Whether tenants may override gateway images here: {"overrides": "allow", '
                        '"repositories": ["ghcr.io/nvidia/"], "require_digest": true}, or {"overrides": "deny"}; '
                        "empty follows the platform setting (GATEWAY_IMAGE_OVERRIDES). Gateways already running an "
                        "image it excludes keep running, with ImagePolicy=False."
                    ),
                },
            ),
            (
                "Maintenance windows",
                {
                    "fields": ("maintenance_windows",),
                    "description": (
                        'When upgrades and rollout waves may start: {"windows": [{"cron": "0 22 * * 1-5", '
                        '"duration": "4h", "timezone": "Europe/Berlin"}], "freezes": [{"start": '
                        '"2026-12-20T00:00:00+01:00", "end": "2027-01-04T00:00:00+01:00"}], '
                        '"hold_installs_and_deletes": false}; empty: at any time.'
                    ),
                },
            ),
            ("Change control", {"fields": ("rollouts_require_approval",)}),
        ]
        if obj is not None:
            fieldsets.append(
                (
                    "Status",
                    {
                        "fields": (
                            "reachable_display",
                            "kubernetes_version",
                            "probed_display",
                            "probe_message",
                            "capabilities_display",
                            "windows_display",
                            "held_display",
                            ("created_at", "updated_at"),
                        ),
                        "classes": ("cp-status",),
                    },
                )
            )
            fieldsets.append(("Events", {"fields": ("events_display",)}))
        return fieldsets

    def get_readonly_fields(self, request: HttpRequest, obj: ManagedCluster | None = None) -> tuple[str, ...]:
        if obj is None:
            return ()
        return (
            "name",
            "kubeconfig_state",
            "reachable_display",
            "kubernetes_version",
            "probed_display",
            "probe_message",
            "capabilities_display",
            "windows_display",
            "held_display",
            "created_at",
            "updated_at",
            "events_display",
        )

    @admin.display(description="Reachability events")
    def events_display(self, obj: ManagedCluster) -> SafeString:
        return events_table(obj.events.all())

    @admin.display(description="Maintenance windows")
    def windows_display(self, obj: ManagedCluster) -> SafeString:
        return format_html("{}<br>{}", window_badge(obj), windows_table(obj))

    @admin.display(description="Gateways waiting for a window")
    def held_display(self, obj: ManagedCluster) -> int:
        return obj.gateways.filter(window_held_until__isnull=False).count()

    @admin.display(description="Kubeconfig")
    def kubeconfig_state(self, obj: ManagedCluster) -> SafeString:
        return secret_state(obj, "kubeconfig")

    @admin.display(description="Reachable")
    def reachable_display(self, obj: ManagedCluster) -> SafeString:
        return reachable_badge(obj)

    @admin.display(description="Served APIs")
    def capabilities_display(self, obj: ManagedCluster) -> SafeString:
        return capability_badges(obj)

    @admin.display(description="Last probe")
    def probed_display(self, obj: ManagedCluster) -> SafeString:
        return relative_time(obj.last_probe_at)

    def save_model(self, request: HttpRequest, obj: ManagedCluster, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        audit_save(request, obj, form, change)
        enqueue_on_commit(TaskName.PROBE_CLUSTER, obj.pk)
        if change and "maintenance_windows" in form.changed_data:
            wake_held_gateways(obj)

    @admin.action(description="Probe now", permissions=("change",))
    def probe_action(self, request: HttpRequest, queryset: QuerySet[ManagedCluster]) -> None:
        with transaction.atomic():
            names = []
            for pk, name in queryset.order_by("name").values_list("pk", "name"):
                enqueue_on_commit(TaskName.PROBE_CLUSTER, pk)
                names.append(name)
        noun = "cluster" if len(names) == 1 else "clusters"
        self.message_user(request, f"Probe queued for {len(names)} {noun}: {', '.join(names)}.", messages.SUCCESS)


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    """The audit trail is read-only: nobody edits history."""

    list_display = ("timestamp", "actor_name", "source", "action", "resource_type", "resource_name")
    list_filter = ("action", "resource_type", "source")
    search_fields = ("actor_name", "resource_name", "resource_id")
    readonly_fields = [f.name for f in AuditEntry._meta.fields]

    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False
