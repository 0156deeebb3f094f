"""The gateway console: lists with phase badges, detail pages with status, and the operations.

The operations mirror the REST API: retry resets the failure counter and backoff, resync only
enqueues, suspend and resume change the spec (so the generation moves), and delete marks the
gateway Deleting; the worker uninstalls it and removes the row. Every one of them enqueues a
reconcile once the transaction commits. Tenants (staff who are not superusers) see and change
only their own gateways.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.utils import quote, unquote
from django.db.models import Model, QuerySet, URLField
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
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
    WriteOnlyPasswordInput,
    abnormal_conditions,
    badge,
    conditions_table,
    copyable,
    events_table,
    relative_time,
    secret_state,
    write_only_field,
)
from controlplane.api.permissions import is_platform_admin
from controlplane.audit import audit_save
from controlplane.dispatch import enqueue_on_commit
from controlplane.models import ManagedCluster
from controlplane.tasks import TaskName
from gateways import operations
from gateways.choices import DatabaseProvider, Phase, PlanAction, PlanStatus
from gateways.image_rules import image_errors
from gateways.models import Gateway, GatewayPlan, GatewayRelease
from gateways.plans import request_plan

__all__ = ["PHASE_TONES", "GatewayAdmin", "trouble_summary"]

PHASE_TONES = {
    Phase.PENDING: MUTED,
    Phase.PROVISIONING: INFO,
    Phase.RUNNING: OK,
    Phase.DEGRADED: WARN,
    Phase.FAILED: ERROR,
    Phase.DELETING: MUTED,
}
PLAN_TONES = {PlanAction.INSTALL: INFO, PlanAction.UPGRADE: WARN, PlanAction.NOTHING: OK, PlanAction.BLOCKED: ERROR}
CHECK_TONES = {"present": OK, "will-create": INFO, "missing": ERROR}
RELEASE_TONES = {"deployed": OK, "failed": ERROR, "superseded": MUTED, "uninstalling": MUTED}
NAMES_SHOWN = 10


def _names(names: list[str]) -> str:
    noun = "gateway" if len(names) == 1 else "gateways"
    shown = ", ".join(names[:NAMES_SHOWN])
    if len(names) > NAMES_SHOWN:
        shown += f" and {len(names) - NAMES_SHOWN} more"
    return f"{len(names)} {noun}: {shown}"


@dataclass(frozen=True)
class Operation:
    name: str
    label: str
    permission: str  # "view", "change" or "delete"


OPERATIONS = {
    op.name: op
    for op in (
        Operation("retry", "Retry now", "view"),
        Operation("resync", "Resync", "view"),
        Operation("suspend", "Suspend", "change"),
        Operation("resume", "Resume", "change"),
    )
}


# Display helpers shared with the dashboard.


def phase_badge(gateway: Gateway) -> SafeString:
    html = badge(gateway.get_phase_display(), PHASE_TONES.get(gateway.phase, MUTED))
    if gateway.suspended:
        html = format_html("{} {}", html, badge("Suspended", MUTED))
    return html


def trouble_reason(gateway: Gateway) -> str:
    """The most telling abnormal condition (Ready first) as 'Reason: message'."""
    failing = abnormal_conditions(gateway.conditions)
    if not failing:
        return ""
    top = failing[0]
    return f"{top.get('reason', '')}: {top.get('message', '')}".strip(": ")


def trouble_summary(gateway: Gateway) -> dict[str, Any]:
    return {
        "name": gateway.name,
        "url": reverse("admin:gateways_gateway_change", args=(quote(gateway.pk),)),
        "phase": phase_badge(gateway),
        "owner": gateway.owner.get_username(),
        "cluster": gateway.cluster.name,
        "failure_count": gateway.failure_count,
        "reason": trouble_reason(gateway),
        "reconciled": relative_time(gateway.last_reconciled_at),
    }


# The form: spec only; the database URI is write-only.


def https_url_formfield(db_field: Any, **kwargs: Any) -> Any:
    """URL fields without a scheme are taken as https:// (the OIDC issuer must be https anyway)."""
    if isinstance(db_field, URLField):
        kwargs.setdefault("assume_scheme", "https")
    return db_field.formfield(**kwargs)



class GatewayForm(forms.ModelForm):
    database_uri = write_only_field(
        WriteOnlyPasswordInput(),
        "Write-only: the stored URI is never shown. Leave empty to keep it; "
        "it is cleared when the provider is not external.",
    )
    current_user: Any = None  # set by GatewayAdmin.get_form

    class Meta:
        model = Gateway
        fields = "__all__"
        formfield_callback = https_url_formfield

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        adding = self.instance._state.adding
        if "database_uri" in self.fields and not data.get("database_uri"):
            provider = data.get("database_provider", self.instance.database_provider)
            keep = provider == DatabaseProvider.EXTERNAL and not adding
            data["database_uri"] = self.instance.database_uri if keep else ""
        if adding and data.get("name"):
            owner = data.get("owner") or self.current_user
            if owner is not None and Gateway.objects.filter(owner=owner, name=data["name"]).exists():
                self.add_error("name", f"{owner.get_username()} already has a gateway named {data['name']}.")
        self._check_route_host(data)
        self._check_images(data)
        return data

    def _check_images(self, data: dict[str, Any]) -> None:
        """The image policy (tenants only), a missing image and mixed provenance, as the API checks them."""
        cluster = data.get("cluster") or getattr(self.instance, "cluster", None)
        if cluster is None or self.errors.get("image") or self.errors.get("supervisor_image"):
            return
        candidate = Gateway(cluster=cluster, image=data.get("image", self.instance.image),
                            supervisor_image=data.get("supervisor_image", self.instance.supervisor_image))
        release = self.instance.release if self.instance.release_id else GatewayRelease.current_default()
        for field, message in image_errors(candidate, release, admin=is_platform_admin(self.current_user)).items():
            self.add_error(field, message)

    def _check_route_host(self, data: dict[str, Any]) -> None:
        """An explicit host another gateway on the cluster already routes is refused (unique per cluster)."""
        host, cluster = data.get("route_host"), data.get("cluster") or getattr(self.instance, "cluster", None)
        if not host or cluster is None or not data.get("route_enabled", self.instance.route_enabled):
            return
        taken = Gateway.objects.filter(cluster=cluster, effective_route_host=host.lower())
        if taken.exclude(pk=self.instance.pk).exists():
            self.add_error("route_host", f"Another gateway on {cluster} already uses {host}; hosts are unique per "
                           "cluster.")


@admin.register(Gateway)
class GatewayAdmin(admin.ModelAdmin):
    form = GatewayForm
    list_display = (
        "name", "phase_column", "route_column", "cluster", "owner", "failure_count", "reconciled_column",
    )
    list_select_related = ("cluster", "owner")
    search_fields = ("name", "namespace")
    search_help_text = "Search by name or namespace."
    ordering = ("name",)
    list_per_page = 50
    actions = ("retry_action", "resync_action", "suspend_action", "resume_action", "delete_action")
    change_form_template = "admin/gateways/gateway/change_form.html"
    delete_confirmation_template = "admin/gateways/gateway/delete_confirmation.html"

    class Media:
        css = CONSOLE_CSS
        js = CONSOLE_JS

    # Access: staff only; tenants see and change their own gateways.

    def _owns(self, request: HttpRequest, obj: Gateway | None) -> bool:
        user = request.user
        return user.is_active and user.is_staff and (
            obj is None or is_platform_admin(user) or obj.owner_id == user.pk
        )

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self._owns(request, None)

    def has_view_permission(self, request: HttpRequest, obj: Gateway | None = None) -> bool:
        return self._owns(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return self._owns(request, None)

    def has_change_permission(self, request: HttpRequest, obj: Gateway | None = None) -> bool:
        return self._owns(request, obj) and (obj is None or obj.deletion_requested_at is None)

    def has_delete_permission(self, request: HttpRequest, obj: Gateway | None = None) -> bool:
        return self._owns(request, obj)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Gateway]:
        queryset = super().get_queryset(request)
        return queryset if is_platform_admin(request.user) else queryset.filter(owner=request.user)

    def get_list_filter(self, request: HttpRequest) -> tuple[Any, ...]:
        filters: tuple[Any, ...] = ("phase", ("cluster", admin.RelatedOnlyFieldListFilter), "suspended")
        if is_platform_admin(request.user):
            filters += (("owner", admin.RelatedOnlyFieldListFilter),)
        return filters

    # Lists.

    @admin.display(description="Phase", ordering="phase")
    def phase_column(self, obj: Gateway) -> SafeString:
        return phase_badge(obj)

    @admin.display(description="Route address", ordering="route_address")
    def route_column(self, obj: Gateway) -> SafeString:
        return copyable(obj.route_address)

    @admin.display(description="Last reconciled", ordering="last_reconciled_at")
    def reconciled_column(self, obj: Gateway) -> SafeString:
        return relative_time(obj.last_reconciled_at)

    # Detail pages: the spec is editable, the status is read-only.

    def get_fieldsets(self, request: HttpRequest, obj: Gateway | None = None) -> list[tuple[str | None, dict]]:
        editable = obj is None or self.has_change_permission(request, obj)
        database = ("database_uri",) if obj is None else ("database_uri", "database_uri_state") if editable else (
            "database_uri_state",
        )
        identity = ["name", "cluster"]
        if obj is not None:
            identity.insert(1, "owner_name")
        elif is_platform_admin(request.user):
            identity.insert(1, "owner")
        fieldsets: list[tuple[str | None, dict]] = [
            (None, {"fields": identity}),
            ("Images", {"fields": ("image", "supervisor_image", *(("images_display",) if obj else ())),
                        "description": self.image_policy_text(obj)}),
            ("Route", {"fields": ("route_enabled", "route_host")}),
            ("OIDC", {"fields": (
                "oidc_issuer", "oidc_audience", "oidc_roles_claim", "oidc_admin_role", "oidc_user_role",
                "oidc_ca_configmap",
            ), "classes": ("collapse",)}),
            ("Database", {"fields": ("database_provider", *database)}),
            ("Operation", {"fields": ("suspended", "labels")}),
        ]
        if obj is not None:
            fieldsets += [
                ("Status", {"fields": (
                    "phase_display", "route_display", "namespace", ("generation", "observed_generation"),
                    ("failure_count", "next_attempt_display"), "last_reconciled_display", "deletion_display",
                    ("created_at", "updated_at"),
                ), "classes": ("cp-status",)}),
                ("Helm release", {"fields": (
                    ("release", "deployed_release"), "release_name", "release_revision", "release_status_display",
                    "chart_version",
                ), "classes": ("cp-status",)}),
                ("Conditions", {"fields": ("conditions_display",), "classes": ("cp-status", "cp-wide")}),
                ("Events", {"fields": ("events_display",), "classes": ("cp-status", "cp-wide")}),
            ]
        return fieldsets

    def get_readonly_fields(self, request: HttpRequest, obj: Gateway | None = None) -> tuple[str, ...]:
        if obj is None:
            return ()
        return (
            "name", "owner_name", "cluster", "database_uri_state",
            "phase_display", "route_display", "namespace", "generation", "observed_generation", "failure_count",
            "next_attempt_display", "last_reconciled_display", "deletion_display", "created_at", "updated_at",
            "release", "deployed_release", "release_name", "release_revision", "release_status_display",
            "chart_version", "conditions_display", "events_display", "images_display",
        )

    @staticmethod
    def image_policy_text(obj: Gateway | None) -> str:
        """The image policy the form is checked against: the gateway's cluster's, else every cluster's."""
        if obj is not None:
            return obj.cluster.effective_image_policy().describe()
        own = ManagedCluster.objects.filter(image_policy__isnull=False).order_by("name")
        lines = [settings.GATEWAY_IMAGE_POLICY.describe(), *(c.effective_image_policy().describe() for c in own)]
        return " ".join([*lines, "Leave the images empty to run the default release's."])

    @admin.display(description="Images")
    def images_display(self, obj: Gateway) -> SafeString:
        image, supervisor_image = obj.desired_images()
        deployed = (f"{obj.deployed_image}, {obj.deployed_supervisor_image}" if obj.deployed_image
                    else "not seen yet")
        source = "overrides" if obj.image_overridden else f"release {obj.release or '(default)'}"
        return format_html("Should run: {}, {} ({})<br>Runs (Helm's record): {}", image, supervisor_image, source,
                           deployed)

    def get_form(self, request: HttpRequest, obj: Gateway | None = None, change: bool = False, **kwargs: Any) -> Any:
        form = super().get_form(request, obj, change=change, **kwargs)
        form.current_user = request.user
        return form

    def formfield_for_dbfield(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if isinstance(db_field, URLField):
            kwargs.setdefault("assume_scheme", "https")
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        return {"owner": request.user.pk, **super().get_changeform_initial_data(request)}

    @admin.display(description="Owner")
    def owner_name(self, obj: Gateway) -> str:
        return obj.owner.get_username()

    @admin.display(description="Stored database URI")
    def database_uri_state(self, obj: Gateway) -> SafeString:
        return secret_state(obj, "database_uri")

    @admin.display(description="Phase")
    def phase_display(self, obj: Gateway) -> SafeString:
        return phase_badge(obj)

    @admin.display(description="Route address")
    def route_display(self, obj: Gateway) -> SafeString:
        return copyable(obj.route_address, empty="not published yet")

    @admin.display(description="Next attempt")
    def next_attempt_display(self, obj: Gateway) -> SafeString:
        return relative_time(obj.next_attempt_at, empty="-")

    @admin.display(description="Last reconciled")
    def last_reconciled_display(self, obj: Gateway) -> SafeString:
        return relative_time(obj.last_reconciled_at)

    @admin.display(description="Deletion requested")
    def deletion_display(self, obj: Gateway) -> SafeString:
        return relative_time(obj.deletion_requested_at, empty="no")

    @admin.display(description="Release status")
    def release_status_display(self, obj: Gateway) -> SafeString:
        if not obj.release_status:
            return format_html('<span class="cp-muted">{}</span>', "not installed")
        tone = WARN if obj.release_status.startswith("pending") else RELEASE_TONES.get(obj.release_status, MUTED)
        return badge(obj.release_status, tone)

    @admin.display(description="Conditions")
    def conditions_display(self, obj: Gateway) -> SafeString:
        return conditions_table(obj.conditions, obj.generation)

    @admin.display(description="Events, newest first")
    def events_display(self, obj: Gateway) -> SafeString:
        return events_table(obj.events.all())

    def render_change_form(
        self, request: HttpRequest, context: dict[str, Any], add: bool = False, change: bool = False,
        form_url: str = "", obj: Gateway | None = None,
    ) -> HttpResponse:
        if obj is not None:
            context["gateway_operations"] = [
                op for op in OPERATIONS.values()
                if self._may(request, obj, op) and (op.name != "suspend" or not obj.suspended)
                and (op.name != "resume" or obj.suspended)
            ]
        return super().render_change_form(request, context, add=add, change=change, form_url=form_url, obj=obj)

    # Saving: the owner defaults to the requesting user; every save enqueues a reconcile.

    def save_model(self, request: HttpRequest, obj: Gateway, form: Any, change: bool) -> None:
        if not change:
            if obj.owner_id is None or not is_platform_admin(request.user):
                obj.owner = request.user
            obj.assign_namespace()
        super().save_model(request, obj, form, change)
        audit_save(request, obj, form, change)
        enqueue_on_commit(TaskName.RECONCILE_GATEWAY, obj.pk)

    # Operations on one gateway (buttons on the detail page) and on a selection (actions).

    def _may(self, request: HttpRequest, obj: Gateway, op: Operation) -> bool:
        check = {"view": self.has_view_permission, "change": self.has_change_permission}[op.permission]
        return check(request, obj)

    def get_urls(self) -> list[Any]:
        name = f"{self.opts.app_label}_{self.opts.model_name}_operation"
        return [
            path("<path:object_id>/operation/<str:operation>/", self.admin_site.admin_view(self.operation_view),
                 name=name),
            path("<path:object_id>/plan/", self.admin_site.admin_view(self.plan_view),
                 name=f"{self.opts.app_label}_{self.opts.model_name}_plan"),
            path("<path:object_id>/plan/<uuid:plan_id>/", self.admin_site.admin_view(self.plan_detail_view),
                 name=f"{self.opts.app_label}_{self.opts.model_name}_plan_detail"),
            *super().get_urls(),
        ]

    def operation_view(self, request: HttpRequest, object_id: str, operation: str) -> HttpResponse:
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        obj = self.get_object(request, unquote(object_id))
        op = OPERATIONS.get(operation)
        if obj is None or op is None:
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
        if not self._may(request, obj, op):
            self.message_user(request, f"{op.label} is not allowed on {obj.name} now.", messages.ERROR)
        else:
            self.run_operation(request, op.name, Gateway.objects.filter(pk=obj.pk))
        return HttpResponseRedirect(reverse("admin:gateways_gateway_change", args=(quote(obj.pk),)))

    # "Preview changes": a plan of the saved spec against what is deployed, computed by a worker.

    def plan_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        obj = self.get_object(request, unquote(object_id))
        if obj is None or not self.has_view_permission(request, obj):
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
        if obj.deletion_requested_at is not None:
            self.message_user(request, f"{obj.name} is being deleted; there is nothing to preview.", messages.ERROR)
            return HttpResponseRedirect(reverse("admin:gateways_gateway_change", args=(quote(obj.pk),)))
        plan = request_plan(request.user, obj, obj)
        return HttpResponseRedirect(reverse("admin:gateways_gateway_plan_detail", args=(quote(obj.pk), plan.pk)))

    def plan_detail_view(self, request: HttpRequest, object_id: str, plan_id: Any) -> HttpResponse:
        obj = self.get_object(request, unquote(object_id))
        plan = GatewayPlan.objects.filter(pk=plan_id, gateway=obj).first() if obj is not None else None
        if plan is None or not self.has_view_permission(request, obj):
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
        result = plan.result or {}
        return TemplateResponse(request, "admin/gateways/gateway/plan.html", {
            **self.admin_site.each_context(request),
            "title": f"Preview changes: {obj.name}",
            "opts": self.opts,
            "original": obj,
            "plan": plan,
            "pending": plan.status == PlanStatus.PENDING,
            "result": result,
            "action_badge": badge(result["action"], PLAN_TONES.get(result["action"], MUTED)) if result else "",
            "checks": [{**check, "badge": badge(check["state"], CHECK_TONES.get(check["state"], MUTED))}
                       for check in result.get("prerequisites", [])],
            "media": self.media,
        })

    def run_operation(self, request: HttpRequest, name: str, queryset: QuerySet[Gateway]) -> None:
        user, source = request.user, "console"
        runners: dict[str, Callable[[], None]] = {
            "retry": lambda: self._report(request, operations.retry(queryset, user, source),
                                          "Retry queued for {}; the failure counter and backoff were reset."),
            "resync": lambda: self._report(request, operations.resync(queryset, user, source), "Resync queued for {}."),
            "suspend": lambda: self._report_suspend(
                request, *operations.set_suspended(queryset, True, user, source), "Suspended"),
            "resume": lambda: self._report_suspend(
                request, *operations.set_suspended(queryset, False, user, source), "Resumed"),
        }
        runners[name]()

    def _report(self, request: HttpRequest, gateways: list[Gateway], template: str) -> None:
        if gateways:
            self.message_user(request, template.format(_names([g.name for g in gateways])), messages.SUCCESS)
        else:
            self.message_user(request, "No gateways were selected.", messages.WARNING)

    def _report_suspend(self, request: HttpRequest, changed: list[Gateway], skipped: list[Gateway], verb: str) -> None:
        if changed:
            changed_names = _names([g.name for g in changed])
            self.message_user(request, f"{verb} {changed_names}; a reconcile was queued.", messages.SUCCESS)
        if skipped:
            skipped_names = _names([g.name for g in skipped])
            self.message_user(request, f"Skipped {skipped_names}: being deleted.", messages.WARNING)

    @admin.action(description="Retry now (reset failures and backoff)", permissions=("change",))
    def retry_action(self, request: HttpRequest, queryset: QuerySet[Gateway]) -> None:
        self.run_operation(request, "retry", queryset)

    @admin.action(description="Resync now", permissions=("change",))
    def resync_action(self, request: HttpRequest, queryset: QuerySet[Gateway]) -> None:
        self.run_operation(request, "resync", queryset)

    @admin.action(description="Suspend reconciliation", permissions=("change",))
    def suspend_action(self, request: HttpRequest, queryset: QuerySet[Gateway]) -> None:
        self.run_operation(request, "suspend", queryset)

    @admin.action(description="Resume reconciliation", permissions=("change",))
    def resume_action(self, request: HttpRequest, queryset: QuerySet[Gateway]) -> None:
        self.run_operation(request, "resume", queryset)

    @admin.action(description="Delete (uninstall) selected gateways", permissions=("delete",))
    def delete_action(self, request: HttpRequest, queryset: QuerySet[Gateway]) -> TemplateResponse | None:
        if request.POST.get("post") != "yes":
            return TemplateResponse(request, "admin/gateways/gateway/delete_selected_confirmation.html", {
                **self.admin_site.each_context(request),
                "title": "Delete gateways?",
                "opts": self.opts,
                "gateways": list(queryset.order_by("name")),
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
                "media": self.media,
            })
        self._report_deletion(request, [g.name for g in operations.request_deletion(queryset, request.user, "console")])
        return None

    def _report_deletion(self, request: HttpRequest, names: list[str]) -> None:
        self.message_user(
            request,
            f"Deletion requested for {_names(names)}. The worker uninstalls each release, deletes its namespace, "
            "then removes the record.",
            messages.SUCCESS,
        )

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)  # it would delete rows; ours asks the worker to uninstall
        return actions

    # The detail page's Delete button: the row stays until the worker has uninstalled the release.

    def get_deleted_objects(self, objs: Iterable[Model], request: HttpRequest) -> tuple[list, dict, set, list]:
        return [str(obj) for obj in objs], {}, set(), []

    def delete_model(self, request: HttpRequest, obj: Gateway) -> None:
        operations.request_deletion(Gateway.objects.filter(pk=obj.pk), request.user, "console")

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Gateway]) -> None:
        operations.request_deletion(queryset, request.user, "console")

    def response_delete(self, request: HttpRequest, obj_display: str, obj_id: Any) -> HttpResponse:
        self._report_deletion(request, [obj_display])
        return HttpResponseRedirect(reverse("admin:gateways_gateway_changelist"))
