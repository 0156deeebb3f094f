"""The catalog console: serving badges, the resolved image, links to the served content, and resync.

Catalogs are shared: every staff user may read them; platform admins (superusers) change them.
The registry pull password is write-only.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from catalogs import history, operations
from catalogs.choices import ConditionType, Reason
from catalogs.models import Catalog
from cluster_vocabulary.kubernetes import ConditionStatus
from controlplane.admin_site import (
    CONSOLE_CSS,
    CONSOLE_JS,
    ERROR,
    INFO,
    MUTED,
    OK,
    WARN,
    PlatformAdminWritesMixin,
    WriteOnlyPasswordInput,
    badge,
    conditions_table,
    copyable,
    events_table,
    relative_time,
    secret_state,
    write_only_field,
)
from controlplane.audit import audit_save
from controlplane.conditions import find_condition
from controlplane.dispatch import enqueue_on_commit
from controlplane.tasks import TaskName

__all__ = ["CatalogAdmin"]

PROGRESSING_TONES = {
    Reason.SUCCEEDED: OK,
    Reason.RETRYING: WARN,
    Reason.BLOCKED: ERROR,
    Reason.SIGNATURE_INVALID: ERROR,
}
METAS_EXAMPLE_QUERY = "schema=olm.package"


def _package(item: dict[str, Any]) -> str:
    return item["name"]


def _object(item: dict[str, Any]) -> str:
    return f"{item['package']}/{item['name']}"


def _entry(item: dict[str, Any]) -> str:
    return f"{item['package']}/{item['channel']}: {item['name']}"


def _edge(item: dict[str, Any]) -> str:
    return f"{item['package']}/{item['channel']}: {item['entry']} {item['kind']} {item['target']}"


# (section of a revision's ``changes``, its list, the title, how one item reads), in the order shown.
CHANGE_GROUPS = (
    ("packages", "added", "Packages added", _package),
    ("packages", "removed", "Packages removed", _package),
    ("packages", "changed", "Packages changed", _package),
    ("channels", "added", "Channels added", _object),
    ("channels", "removed", "Channels removed", _object),
    ("channels", "changed", "Channels changed", _object),
    ("bundles", "added", "Bundles added", _object),
    ("bundles", "removed", "Bundles removed", _object),
    ("bundles", "changed", "Bundles changed", _object),
    ("channel_entries", "added", "Channel entries added", _entry),
    ("channel_entries", "removed", "Channel entries removed", _entry),
    ("upgrade_edges", "added", "Upgrade edges added", _edge),
    ("upgrade_edges", "removed", "Upgrade edges removed", _edge),
)


def change_groups(changes: dict[str, Any]) -> list[dict[str, Any]]:
    """The non-empty lists of a revision's bounded diff, each with its exact total."""
    groups = []
    for section, kind, title, render in CHANGE_GROUPS:
        items = changes.get(section, {}).get(kind, [])
        if items:
            fields = [", ".join(item.get("fields_changed", ())) for item in items]
            shown = [render(item) + (f" ({note})" if note else "") for item, note in zip(items, fields, strict=True)]
            groups.append({"title": title, "items": shown, "total": changes[section]["counts"][kind]})
    return groups


def last_change(catalog: Catalog) -> SafeString:
    """What the newest content switch changed, from its recorded (bounded) diff."""
    revision = history.revisions(catalog).first()
    context: dict[str, Any] = {"revision": revision}
    if revision is not None:
        context |= {
            "when": relative_time(revision.switched_at),
            "groups": change_groups(revision.changes),
            "empty_note": "No package, channel or bundle changed." if revision.changes else "No details recorded.",
            "diff_url": reverse("catalogs-api:catalog-diff", kwargs={"pk": catalog.pk}),
        }
    return render_to_string("admin/catalogs/last_change.html", context)


def history_table(catalog: Catalog) -> SafeString:
    rows = [
        {
            "when": relative_time(r.switched_at),
            "digest": r.content_digest,
            "ref": copyable(r.resolved_ref),
            "summary": r.summary,
        }
        for r in history.revisions(catalog)
    ]
    return render_to_string(
        "admin/catalogs/history_table.html", {"rows": rows, "limit": settings.CATALOG_HISTORY_LIMIT}
    )


def serving_badge(catalog: Catalog) -> SafeString:
    serving = find_condition(catalog.conditions or [], ConditionType.SERVING)
    if serving is None:
        return badge("Pending", MUTED)
    if serving["status"] == ConditionStatus.TRUE:
        return badge("Serving", OK)
    tone = MUTED if serving.get("reason") == Reason.USER_SPECIFIED_UNAVAILABLE else ERROR
    return badge("Not serving", tone)


def progressing_badge(catalog: Catalog) -> SafeString:
    progressing = find_condition(catalog.conditions or [], ConditionType.PROGRESSING)
    if progressing is None:
        return badge("Pending", MUTED)
    reason = progressing.get("reason", "")
    return badge(reason or progressing["status"], PROGRESSING_TONES.get(reason, INFO))


class CatalogForm(forms.ModelForm):
    pull_password = write_only_field(
        WriteOnlyPasswordInput(),
        "Write-only: the stored password is never shown. Leave empty to keep it; "
        "it is cleared when the username is cleared.",
    )

    class Meta:
        model = Catalog
        fields = "__all__"

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if "pull_password" in self.fields and not data.get("pull_password"):
            keep = bool(data.get("pull_username")) and not self.instance._state.adding
            data["pull_password"] = self.instance.pull_password if keep else ""
        return data


@admin.register(Catalog)
class CatalogAdmin(PlatformAdminWritesMixin, admin.ModelAdmin):
    form = CatalogForm
    list_display = (
        "name",
        "serving_column",
        "progressing_column",
        "image_ref",
        "availability_mode",
        "priority",
        "resolved_column",
        "unpacked_column",
    )
    list_filter = ("availability_mode",)
    search_fields = ("name", "image_ref")
    search_help_text = "Search by name or image reference."
    ordering = ("name",)
    actions = ("resync_action",)

    class Media:
        css = CONSOLE_CSS
        js = CONSOLE_JS

    @admin.display(description="Serving")
    def serving_column(self, obj: Catalog) -> SafeString:
        return serving_badge(obj)

    @admin.display(description="Progressing")
    def progressing_column(self, obj: Catalog) -> SafeString:
        return progressing_badge(obj)

    @admin.display(description="Resolved reference", ordering="resolved_ref")
    def resolved_column(self, obj: Catalog) -> SafeString:
        return copyable(obj.resolved_ref)

    @admin.display(description="Last unpacked", ordering="last_unpacked")
    def unpacked_column(self, obj: Catalog) -> SafeString:
        return relative_time(obj.last_unpacked)

    def get_fieldsets(self, request: HttpRequest, obj: Catalog | None = None) -> list[tuple[str | None, dict]]:
        editable = self.has_change_permission(request, obj)
        fieldsets: list[tuple[str | None, dict]] = [
            (
                None,
                {"fields": ("name", "image_ref", "poll_interval_minutes", "priority", "availability_mode", "labels")},
            ),
            (
                "Registry access",
                {
                    "fields": (
                        "pull_username",
                        "pull_password" if editable else "pull_password_state",
                        "ca",
                    ),
                    "classes": ("collapse",),
                },
            ),
            ("Signature policy", {"fields": ("signature_keys",), "classes": ("collapse",)}),
        ]
        if obj is not None:
            fieldsets += [
                (
                    "Status",
                    {
                        "fields": (
                            "serving_display",
                            "progressing_display",
                            "resolved_display",
                            "content_links",
                            "base_url",
                            "last_unpacked_display",
                            "content_digest",
                            "blocked_digest",
                            "signature_display",
                            ("generation", "observed_generation"),
                            ("created_at", "updated_at"),
                        ),
                        "classes": ("cp-status",),
                    },
                ),
                (
                    "What changed in the last update",
                    {
                        "fields": ("last_change_display",),
                        "classes": ("cp-status", "cp-wide"),
                    },
                ),
                ("Conditions", {"fields": ("conditions_display",), "classes": ("cp-status", "cp-wide")}),
                ("Events", {"fields": ("events_display",), "classes": ("cp-status", "cp-wide")}),
                ("History", {"fields": ("history_display",), "classes": ("cp-status", "cp-wide", "collapse")}),
            ]
        return fieldsets

    def get_readonly_fields(self, request: HttpRequest, obj: Catalog | None = None) -> tuple[str, ...]:
        if obj is None:
            return ()
        return (
            "name",
            "pull_password_state",
            "serving_display",
            "progressing_display",
            "resolved_display",
            "content_links",
            "base_url",
            "last_unpacked_display",
            "content_digest",
            "blocked_digest",
            "signature_display",
            "generation",
            "observed_generation",
            "created_at",
            "updated_at",
            "conditions_display",
            "events_display",
            "last_change_display",
            "history_display",
        )

    @admin.display(description="Pull password")
    def pull_password_state(self, obj: Catalog) -> SafeString:
        return secret_state(obj, "pull_password")

    @admin.display(description="Serving")
    def serving_display(self, obj: Catalog) -> SafeString:
        return serving_badge(obj)

    @admin.display(description="Progressing")
    def progressing_display(self, obj: Catalog) -> SafeString:
        return progressing_badge(obj)

    @admin.display(description="Resolved reference")
    def resolved_display(self, obj: Catalog) -> SafeString:
        return copyable(obj.resolved_ref, empty="not resolved yet")

    @admin.display(description="Last unpacked")
    def last_unpacked_display(self, obj: Catalog) -> SafeString:
        return relative_time(obj.last_unpacked)

    @admin.display(description="Signature")
    def signature_display(self, obj: Catalog) -> SafeString:
        if not obj.signature_keys:
            return badge("No policy", MUTED)
        return badge("Verified", OK) if obj.signature_verified else badge("Not verified", WARN)

    @admin.display(description="Content")
    def content_links(self, obj: Catalog) -> SafeString:
        every = reverse("catalogs-content:all", kwargs={"name": obj.name})
        metas = reverse("catalogs-content:metas", kwargs={"name": obj.name})
        return format_html(
            '<a class="cp-link" href="{}">All content</a> · <a class="cp-link" href="{}?{}">Packages (metas query)</a>',
            every,
            metas,
            METAS_EXAMPLE_QUERY,
        )

    @admin.display(description="Conditions")
    def conditions_display(self, obj: Catalog) -> SafeString:
        return conditions_table(obj.conditions, obj.generation)

    @admin.display(description="Last update")
    def last_change_display(self, obj: Catalog) -> SafeString:
        return last_change(obj)

    @admin.display(description="Content switches, newest first")
    def history_display(self, obj: Catalog) -> SafeString:
        return history_table(obj)

    @admin.display(description="Events, newest first")
    def events_display(self, obj: Catalog) -> SafeString:
        return events_table(obj.events.all())

    def save_model(self, request: HttpRequest, obj: Catalog, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        audit_save(request, obj, form, change)
        enqueue_on_commit(TaskName.RECONCILE_CATALOG, obj.pk)

    @admin.action(description="Resync now", permissions=("change",))
    def resync_action(self, request: HttpRequest, queryset: QuerySet[Catalog]) -> None:
        names = [catalog.name for catalog in operations.resync(queryset, request.user, "console")]
        noun = "catalog" if len(names) == 1 else "catalogs"
        self.message_user(request, f"Resync queued for {len(names)} {noun}: {', '.join(names)}.", messages.SUCCESS)
