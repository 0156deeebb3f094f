"""The console's own gateway pages: the operation buttons of a detail page and "Preview changes".

A plan previews the saved spec against what is deployed; a worker computes it, and the plan page shows
it (pending until then).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.admin.utils import quote, unquote
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse

from controlplane.admin_site import MUTED, badge
from gateways import operations
from gateways.admin.display import CHECK_TONES, PLAN_TONES
from gateways.choices import PlanStatus
from gateways.models import Gateway, GatewayPlan
from gateways.plans import request_plan

__all__ = ["OPERATIONS", "GatewayViewsMixin", "Operation"]


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


class GatewayViewsMixin:
    """For the gateway ModelAdmin: operations on one gateway (buttons) or a selection (actions), and plans."""

    def _may(self, request: HttpRequest, obj: Gateway, op: Operation) -> bool:
        check = {"view": self.has_view_permission, "change": self.has_change_permission}[op.permission]
        return check(request, obj)

    def get_urls(self) -> list[Any]:
        name = f"{self.opts.app_label}_{self.opts.model_name}_operation"
        return [
            path(
                "<path:object_id>/operation/<str:operation>/",
                self.admin_site.admin_view(self.operation_view),
                name=name,
            ),
            path(
                "<path:object_id>/plan/",
                self.admin_site.admin_view(self.plan_view),
                name=f"{self.opts.app_label}_{self.opts.model_name}_plan",
            ),
            path(
                "<path:object_id>/plan/<uuid:plan_id>/",
                self.admin_site.admin_view(self.plan_detail_view),
                name=f"{self.opts.app_label}_{self.opts.model_name}_plan_detail",
            ),
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
        return TemplateResponse(
            request,
            "admin/gateways/gateway/plan.html",
            {
                **self.admin_site.each_context(request),
                "title": f"Preview changes: {obj.name}",
                "opts": self.opts,
                "original": obj,
                "plan": plan,
                "pending": plan.status == PlanStatus.PENDING,
                "result": result,
                "action_badge": badge(result["action"], PLAN_TONES.get(result["action"], MUTED)) if result else "",
                "checks": [
                    {**check, "badge": badge(check["state"], CHECK_TONES.get(check["state"], MUTED))}
                    for check in result.get("prerequisites", [])
                ],
                "media": self.media,
            },
        )

    def run_operation(self, request: HttpRequest, name: str, queryset: QuerySet[Gateway]) -> None:
        user, source = request.user, "console"
        runners: dict[str, Callable[[], None]] = {
            "retry": lambda: self._report(
                request,
                operations.retry(queryset, user, source),
                "Retry queued for {}; the failure counter and backoff were reset.",
            ),
            "resync": lambda: self._report(request, operations.resync(queryset, user, source), "Resync queued for {}."),
            "suspend": lambda: self._report_suspend(
                request,
                *operations.set_suspended(queryset, True, user, source),
                "Suspended {}; a reconcile was queued.",
            ),
            "resume": lambda: self._report_suspend(
                request, *operations.set_suspended(queryset, False, user, source), "Resumed {}; a reconcile was queued."
            ),
        }
        runners[name]()
