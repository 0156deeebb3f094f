"""The releases and rollouts console (platform admins only): releases, and rollouts with progress per wave.

A rollout's page shows each wave's counts by state (worst first), the gateways that blocked it, its
conditions and events, and Pause / Resume / Abort buttons; the operations are ``rollouts.operations``,
as in the API. A wave that needs approval shows its plan, gateway by gateway, with Approve and Reject
(``rollouts.approvals``, as in the API: four eyes, and the plan's hash as shown). Creating a rollout plans
and claims its gateways in one transaction.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import quote, unquote
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.template.loader import render_to_string
from django.urls import path, reverse
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
    badge,
    conditions_table,
    copyable,
    events_table,
    relative_time,
)
from controlplane.audit import record
from controlplane.dispatch import enqueue_on_commit
from controlplane.image_policy import provenance_problem
from controlplane.tasks import TaskName
from gateways.choices import ReleaseStatus
from gateways.models import GatewayRelease
from gateways.states import VerifiedArtefact
from rollouts import approvals, operations
from rollouts.choices import ACTIVE_PHASES, ApprovalState, RolloutPhase, TargetState
from rollouts.models import Rollout, WavePlan
from rollouts.planning import PlanError
from rollouts.progress_plot import wave_bars
from rollouts.states import Reason
from rollouts.status import TargetRow, summarise

__all__ = ["GatewayReleaseAdmin", "RolloutAdmin"]

PHASE_TONES = {
    RolloutPhase.PENDING: MUTED,
    RolloutPhase.PROGRESSING: INFO,
    RolloutPhase.PAUSED: WARN,
    RolloutPhase.HALTED: ERROR,
    RolloutPhase.COMPLETED: OK,
    RolloutPhase.ABORTED: MUTED,
    RolloutPhase.AWAITING_APPROVAL: WARN,
}
APPROVAL_TONES = {
    ApprovalState.AWAITING: WARN,
    ApprovalState.APPROVED: OK,
    ApprovalState.REJECTED: ERROR,
    ApprovalState.VOID: MUTED,
}
DECISIONS = {
    "approve": (Reason.APPROVED, "plan_hash", approvals.approve),
    "reject": (Reason.REJECTED, "reason", approvals.reject),
}
STATE_TONES = {
    TargetState.FAILED: ERROR,
    TargetState.ROLLED_BACK: WARN,
    TargetState.UPGRADING: INFO,
    TargetState.PENDING: MUTED,
    TargetState.SKIPPED: MUTED,
    TargetState.HEALTHY: OK,
}
# The progress chart: skipped is lighter than pending, which shares its badge tone.
PLOT_TONES = {**STATE_TONES, TargetState.SKIPPED: "faint"}
RELEASE_TONES = {ReleaseStatus.PENDING: MUTED, ReleaseStatus.READY: OK, ReleaseStatus.INVALID: ERROR}
OPERATIONS = {
    "pause": (
        "Pause",
        (RolloutPhase.PENDING, RolloutPhase.PROGRESSING, RolloutPhase.AWAITING_APPROVAL),
        operations.pause,
    ),
    "resume": ("Resume", (RolloutPhase.PAUSED,), operations.resume),
    "abort": ("Abort", ACTIVE_PHASES, operations.abort),
}


@admin.register(GatewayRelease)
class GatewayReleaseAdmin(PlatformAdminOnly, admin.ModelAdmin):
    deletable = False  # the console does not delete releases or rollouts
    list_display = (
        "name",
        "chart",
        "version",
        "image",
        "supervisor_image",
        "default",
        "status_column",
        "verified_column",
        "chart_version",
        "created_at",
    )
    list_filter = ("status", "default")
    search_fields = ("name", "chart", "image", "supervisor_image")
    readonly_fields = (
        "status_column",
        "message",
        "chart_version",
        "validated_at",
        "verified_column",
        "verified_display",
        "events_display",
    )
    fields = (
        "name",
        "chart",
        "version",
        "chart_digest",
        "image",
        "supervisor_image",
        "allow_mixed_provenance",
        "values",
        "signature_keys",
        "default",
        *readonly_fields,
    )

    def get_readonly_fields(self, request: HttpRequest, obj: GatewayRelease | None = None) -> tuple[str, ...]:
        fixed = (
            "name",
            "chart",
            "version",
            "chart_digest",
            "image",
            "supervisor_image",
            "allow_mixed_provenance",
            "values",
        )
        if obj is not None and not obj.signature_keys:
            fixed += ("signature_keys",)  # a policy is never added to a release; one's keys may change
        return (*(fixed if obj is not None else ()), *self.readonly_fields)

    @admin.display(description="Status", ordering="status")
    def status_column(self, obj: GatewayRelease) -> SafeString:
        return badge(obj.status, RELEASE_TONES.get(obj.status, MUTED))

    @admin.display(description="Verified")
    def verified_column(self, obj: GatewayRelease) -> SafeString:
        if not obj.signature_keys:
            return badge("No policy", MUTED)
        if obj.verification_failed():
            return badge("Not verified", ERROR)
        if obj.status == ReleaseStatus.READY and not obj.trust_problem():
            return badge("Verified", OK)
        return badge("Verifying", INFO) if obj.status != ReleaseStatus.INVALID else badge("Failed", ERROR)

    @admin.display(description="What was verified")
    def verified_display(self, obj: GatewayRelease) -> SafeString:
        verified = obj.verified_digests or {}
        references = {
            VerifiedArtefact.CHART: obj.chart,
            VerifiedArtefact.IMAGE: obj.image,
            VerifiedArtefact.SUPERVISOR_IMAGE: obj.supervisor_image,
        }
        rows = [
            {"artefact": kind, "reference": reference, "digest": copyable(verified[kind])}
            for kind, reference in references.items()
            if verified.get(kind)
        ]
        verified_at = verified.get(VerifiedArtefact.VERIFIED_AT)
        problem = obj.trust_problem() or (obj.message if obj.status == ReleaseStatus.INVALID else "")
        return render_to_string(
            "admin/rollouts/gatewayrelease/verified.html",
            {
                "rows": rows,
                "key": verified.get(VerifiedArtefact.KEY, ""),
                "when": relative_time(datetime.fromisoformat(verified_at)) if verified_at else "",
                "problem": problem,
            },
        )

    @admin.display(description="Events")
    def events_display(self, obj: GatewayRelease) -> SafeString:
        return events_table(obj.events.all())

    def save_model(self, request: HttpRequest, obj: GatewayRelease, form: Any, change: bool) -> None:
        if obj.default:
            GatewayRelease.objects.filter(default=True).exclude(pk=obj.pk).update(default=False)
        super().save_model(request, obj, form, change)
        if not change or "signature_keys" in form.changed_data:  # verified (again) by the worker, as from the API
            enqueue_on_commit(TaskName.VALIDATE_RELEASE, obj.pk)
        mixed = provenance_problem(obj.image, obj.supervisor_image) if obj.image and not change else None
        if obj.allow_mixed_provenance and mixed:
            record(request.user, "allow_mixed_provenance", obj, {"problem": mixed}, source="console")


# What a rollout's creator chooses: the form's fields (after the name) and the detail page's.
STRATEGY_FIELDS = (
    "target_release",
    "selector",
    "wave_clusters",
    "wave_percentages",
    "max_parallel",
    "bake_seconds",
    "gate_timeout_seconds",
    "failure_policy",
    "require_approval",
)


class RolloutForm(forms.ModelForm):
    """The strategy, checked by planning the waves and checking the claims (again, under locks, on save)."""

    class Meta:
        model = Rollout
        fields = ("name", *STRATEGY_FIELDS)
        help_texts = {
            "selector": 'Which gateways: {"clusters": ["east"], "labels": {"tier": "prod"}}; {} for all.',
            "wave_clusters": 'Waves of cluster names, the canary first: [["east"], ["west", "north"]].',
            "wave_percentages": "Or cumulative percentages, the canary first: [10, 100] (the default).",
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "target_release" in self.fields:  # absent on the read-only detail page
            self.fields["target_release"].queryset = GatewayRelease.objects.exclude(status=ReleaseStatus.INVALID)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if not self.errors:
            candidate = Rollout(**{name: cleaned[name] for name in self.Meta.fields if name in cleaned})
            try:
                operations.plan_targets(candidate, lock=False)
            except (PlanError, operations.RolloutConflict) as exc:
                raise forms.ValidationError(str(exc)) from None
        return cleaned


@admin.register(Rollout)
class RolloutAdmin(PlatformAdminOnly, admin.ModelAdmin):
    deletable = False  # the console does not delete releases or rollouts
    form = RolloutForm
    list_display = ("name", "target_release", "phase_column", "progress_column", "worst_column", "created_at")
    list_filter = ("phase",)
    search_fields = ("name",)
    change_form_template = "admin/rollouts/rollout/change_form.html"
    detail_fields = (
        "phase_column",
        *STRATEGY_FIELDS,
        "created_by",
        "created_at",
        "finished_at",
        "waves_display",
        "approval_display",
        "conditions_display",
        "events_display",
    )

    class Media:
        css = CONSOLE_CSS
        js = CONSOLE_JS

    def get_queryset(self, request: HttpRequest) -> QuerySet[Rollout]:
        return super().get_queryset(request).select_related("target_release").prefetch_related("targets")

    def get_fields(self, request: HttpRequest, obj: Rollout | None = None) -> Any:
        return self.detail_fields if obj is not None else RolloutForm.Meta.fields

    def get_readonly_fields(self, request: HttpRequest, obj: Rollout | None = None) -> Any:
        return self.detail_fields if obj is not None else ()

    def _summary(self, obj: Rollout) -> dict[str, Any]:
        rows = [TargetRow(t.gateway_name, t.cluster_name, t.wave, t.state, t.reason) for t in obj.targets.all()]
        return summarise(rows, obj.wave_count, obj.current_wave)

    @admin.display(description="Phase", ordering="phase")
    def phase_column(self, obj: Rollout) -> SafeString:
        return badge(obj.phase, PHASE_TONES.get(obj.phase, MUTED))

    @admin.display(description="Healthy")
    def progress_column(self, obj: Rollout) -> str:
        total = self._summary(obj)["total"]
        return f"{total['counts']['healthy']}/{total['size']}"

    @admin.display(description="Worst")
    def worst_column(self, obj: Rollout) -> SafeString:
        worst = self._summary(obj)["total"]["worst"] or "-"
        return badge(worst, STATE_TONES.get(worst, MUTED))

    @admin.display(description="Waves")
    def waves_display(self, obj: Rollout) -> SafeString:
        summary = self._summary(obj)
        waves = [
            {
                **wave,
                "worst_badge": badge(wave["worst"] or "-", STATE_TONES.get(wave["worst"], MUTED)),
                "cells": [(state, n, STATE_TONES.get(state, MUTED)) for state, n in wave["counts"].items()],
            }
            for wave in summary["waves"]
        ]
        return render_to_string(
            "admin/rollouts/rollout/waves.html",
            {
                "waves": waves,
                "states": list(summary["total"]["counts"]),
                "blocked": summary["blocked"],
                "chart": wave_bars(summary["waves"], PLOT_TONES),
                "current": obj.current_wave,
                "baking_since": obj.baking_since,
            },
        )

    @admin.display(description="Wave plan")
    def approval_display(self, obj: Rollout) -> SafeString | str:
        plan = WavePlan.objects.filter(rollout=obj, wave=obj.current_wave).select_related("decided_by").first()
        if plan is None:
            return "-"
        return render_to_string(
            "admin/rollouts/rollout/approval.html",
            {
                "plan": plan,
                "state_badge": badge(plan.state, APPROVAL_TONES.get(plan.state, MUTED)),
                "gateways": plan.gateways(),
            },
        )

    @admin.display(description="Conditions")
    def conditions_display(self, obj: Rollout) -> SafeString:
        return conditions_table(obj.conditions, 0)

    @admin.display(description="Events")
    def events_display(self, obj: Rollout) -> SafeString:
        return events_table(obj.events.all())

    def save_model(self, request: HttpRequest, obj: Rollout, form: Any, change: bool) -> None:
        obj.created_by = request.user
        try:
            operations.create_rollout(obj)
        except (PlanError, operations.RolloutConflict) as exc:  # lost a race since the form was checked
            self.message_user(request, str(exc), messages.ERROR)
            return
        record(request.user, "create", obj, source="console")

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Rollout | None = None,
    ) -> HttpResponse:
        if obj is not None:
            context["rollout_operations"] = [(name, op[0]) for name, op in OPERATIONS.items() if obj.phase in op[1]]
            plan = approvals.awaiting_plan(obj) if obj.phase == RolloutPhase.AWAITING_APPROVAL else None
            context["awaiting_hash"] = plan.plan_hash if plan else None
        return super().render_change_form(request, context, add=add, change=change, form_url=form_url, obj=obj)

    def get_urls(self) -> list[Any]:
        return [
            path(
                "<path:object_id>/operation/<str:operation>/",
                self.admin_site.admin_view(self.operation_view),
                name="rollouts_rollout_operation",
            ),
            path(
                "<path:object_id>/decide/<str:decision>/",
                self.admin_site.admin_view(self.decide_view),
                name="rollouts_rollout_decide",
            ),
            *super().get_urls(),
        ]

    def operation_view(self, request: HttpRequest, object_id: str, operation: str) -> HttpResponse:
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        obj = self.get_object(request, unquote(object_id))
        if obj is None or operation not in OPERATIONS or not self.has_change_permission(request, obj):
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
        label, _, run = OPERATIONS[operation]
        try:
            run(obj.pk, request.user.username)
        except operations.RolloutConflict as exc:
            self.message_user(request, str(exc), messages.ERROR)
        else:
            record(request.user, operation, obj, source="console")
            self.message_user(request, f"{label}: {obj.name}.", messages.SUCCESS)
        return HttpResponseRedirect(reverse("admin:rollouts_rollout_change", args=(quote(obj.pk),)))

    def decide_view(self, request: HttpRequest, object_id: str, decision: str) -> HttpResponse:
        """Approve the plan by the hash the page showed, or reject it with a reason."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        obj = self.get_object(request, unquote(object_id))
        if obj is None or decision not in DECISIONS or not self.has_change_permission(request, obj):
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
        label, field, decide = DECISIONS[decision]
        value = request.POST.get(field, "").strip()
        if not value:
            self.message_user(request, f"Give the {field}.", messages.ERROR)
            return HttpResponseRedirect(reverse("admin:rollouts_rollout_change", args=(quote(obj.pk),)))
        try:
            plan = decide(obj.pk, request.user, value)
        except approvals.ApprovalRefused as exc:
            self.message_user(request, exc.message, messages.ERROR)
        else:
            given = {"reason": value} if field == "reason" else {}
            record(
                request.user, decision, obj, {"wave": plan.wave, "plan_hash": plan.plan_hash, **given}, source="console"
            )
            self.message_user(request, f"{label}: wave {plan.wave} of {obj.name}.", messages.SUCCESS)
        return HttpResponseRedirect(reverse("admin:rollouts_rollout_change", args=(quote(obj.pk),)))
