"""The gateway ModelAdmin: access (tenants see their own), the detail page's fields, saving and the actions."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.contrib import admin
from django.contrib.admin import helpers
from django.db.models import Model, QuerySet, URLField
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse

from controlplane.admin_site import CONSOLE_CSS, CONSOLE_JS
from controlplane.api.permissions import is_platform_admin
from controlplane.audit import audit_save
from controlplane.dispatch import enqueue_on_commit
from controlplane.models import ManagedCluster
from controlplane.tasks import TaskName
from gateways import operations
from gateways.admin.display import GatewayDisplayMixin
from gateways.admin.form import GatewayForm
from gateways.admin.messages import OperationMessagesMixin
from gateways.admin.views import OPERATIONS, GatewayViewsMixin
from gateways.models import Gateway
from gateways.pass_queue import asked_by

__all__ = ["GatewayAdmin"]


@admin.register(Gateway)
class GatewayAdmin(GatewayDisplayMixin, GatewayViewsMixin, OperationMessagesMixin, admin.ModelAdmin):
    form = GatewayForm
    list_display = (
        "name",
        "phase_column",
        "route_column",
        "cluster",
        "owner",
        "failure_count",
        "reconciled_column",
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
        return user.is_active and user.is_staff and (obj is None or is_platform_admin(user) or obj.owner_id == user.pk)

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

    # Detail pages: the spec is editable, the status is read-only.

    def get_fieldsets(self, request: HttpRequest, obj: Gateway | None = None) -> list[tuple[str | None, dict]]:
        editable = obj is None or self.has_change_permission(request, obj)
        database = (
            ("database_uri",)
            if obj is None
            else ("database_uri", "database_uri_state")
            if editable
            else ("database_uri_state",)
        )
        identity = ["name", "cluster"]
        if obj is not None:
            identity.insert(1, "owner_name")
        elif is_platform_admin(request.user):
            identity.insert(1, "owner")
        fieldsets: list[tuple[str | None, dict]] = [
            (None, {"fields": identity}),
            (
                "Images",
                {
                    "fields": ("image", "supervisor_image", *(("images_display",) if obj else ())),
                    "description": self.image_policy_text(obj),
                },
            ),
            ("Route", {"fields": ("route_enabled", "route_host")}),
            (
                "OIDC",
                {
                    "fields": (
                        "oidc_issuer",
                        "oidc_audience",
                        "oidc_roles_claim",
                        "oidc_admin_role",
                        "oidc_user_role",
                        "oidc_ca_configmap",
                    ),
                    "classes": ("collapse",),
                },
            ),
            ("Database", {"fields": ("database_provider", *database)}),
            ("Operation", {"fields": ("suspended", "labels")}),
        ]
        if obj is not None:
            fieldsets += [
                (
                    "Status",
                    {
                        "fields": (
                            "phase_display",
                            "route_display",
                            "namespace",
                            ("generation", "observed_generation"),
                            ("failure_count", "next_attempt_display"),
                            "last_reconciled_display",
                            "deletion_display",
                            ("created_at", "updated_at"),
                        ),
                        "classes": ("cp-status",),
                    },
                ),
                (
                    "Helm release",
                    {
                        "fields": (
                            ("release", "deployed_release"),
                            "release_name",
                            "release_revision",
                            "release_status_display",
                            "chart_version",
                        ),
                        "classes": ("cp-status",),
                    },
                ),
                ("Conditions", {"fields": ("conditions_display",), "classes": ("cp-status", "cp-wide")}),
                ("Events", {"fields": ("events_display",), "classes": ("cp-status", "cp-wide")}),
            ]
        return fieldsets

    def get_readonly_fields(self, request: HttpRequest, obj: Gateway | None = None) -> tuple[str, ...]:
        if obj is None:
            return ()
        return (
            "name",
            "owner_name",
            "cluster",
            "database_uri_state",
            "phase_display",
            "route_display",
            "namespace",
            "generation",
            "observed_generation",
            "failure_count",
            "next_attempt_display",
            "last_reconciled_display",
            "deletion_display",
            "created_at",
            "updated_at",
            "release",
            "deployed_release",
            "release_name",
            "release_revision",
            "release_status_display",
            "chart_version",
            "conditions_display",
            "events_display",
            "images_display",
        )

    @staticmethod
    def image_policy_text(obj: Gateway | None) -> str:
        """The image policy the form is checked against: the gateway's cluster's, else every cluster's."""
        if obj is not None:
            return obj.cluster.effective_image_policy().describe()
        own = ManagedCluster.objects.filter(image_policy__isnull=False).order_by("name")
        lines = [settings.GATEWAY_IMAGE_POLICY.describe(), *(c.effective_image_policy().describe() for c in own)]
        return " ".join([*lines, "Leave the images empty to run the default release's."])

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

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Gateway | None = None,
    ) -> HttpResponse:
        if obj is not None:
            context["gateway_operations"] = [
                op
                for op in OPERATIONS.values()
                if self._may(request, obj, op)
                and (op.name != "suspend" or not obj.suspended)
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
        enqueue_on_commit(TaskName.RECONCILE_GATEWAY, obj.pk, queue=asked_by(request.user))

    # Actions on a selection (the detail page's buttons and plans are in gateways.admin.views).

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
            return TemplateResponse(
                request,
                "admin/gateways/gateway/delete_selected_confirmation.html",
                {
                    **self.admin_site.each_context(request),
                    "title": "Delete gateways?",
                    "opts": self.opts,
                    "gateways": list(queryset.order_by("name")),
                    "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
                    "media": self.media,
                },
            )
        self._report_deletion(request, [g.name for g in operations.request_deletion(queryset, request.user, "console")])
        return None

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
