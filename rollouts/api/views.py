"""Rollout endpoints: create, list, get, pause, resume, abort, targets, events, and a wave's plan with its approval
or rejection. Platform admins only: anyone else gets 403 on create and 404 on a rollout."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import Prefetch, QuerySet
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_view
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from cluster_vocabulary.kubernetes import ConditionStatus
from controlplane.api.errors import ApiConflict
from controlplane.api.permissions import IsPlatformAdmin, is_platform_admin
from controlplane.audit import record
from rollouts import approvals, operations
from rollouts.api.serializers import (
    ApproveSerializer,
    RejectSerializer,
    RolloutEventSerializer,
    RolloutSerializer,
    RolloutTargetSerializer,
    WavePlanSerializer,
)
from rollouts.approval import Refusal
from rollouts.choices import RolloutPhase
from rollouts.models import Rollout, RolloutTarget, WavePlan
from rollouts.planning import PlanError
from rollouts.states import ConditionType, Reason

__all__ = ["RolloutViewSet"]

ROLLOUT_EXAMPLE = OpenApiExample(
    "A canary of 10%, then the rest, rolled back on a failed gate",
    request_only=True,
    value={
        "name": "openshell-0-7-0",
        "target_release": "openshell-0-7-0",
        "selector": {"clusters": ["east", "west"], "labels": {"tier": "prod"}},
        "waves": {"percentages": [10, 100]},
        "max_parallel": 8,
        "bake_seconds": 300,
        "gate_timeout_seconds": 600,
        "failure_policy": "halt_and_rollback",
    },
)
STATUS_EXAMPLE = OpenApiExample(
    "Halted: the canary failed its gate and was rolled back",
    response_only=True,
    status_codes=["200"],
    value={
        "id": "6f1c2b9e-1d2a-4c8b-9e3f-0a1b2c3d4e5f",
        "name": "openshell-0-7-0",
        "target_release": "openshell-0-7-0",
        "selector": {"clusters": ["east"]},
        "wave_plan": {"clusters": [], "percentages": [10, 100]},
        "max_parallel": 8,
        "bake_seconds": 300,
        "gate_timeout_seconds": 600,
        "failure_policy": "halt_and_rollback",
        "created_by": "platform",
        "created_at": "2025-01-01T12:00:00Z",
        "updated_at": "2025-01-01T12:10:00Z",
        "status": {
            "phase": RolloutPhase.HALTED.value,
            "current_wave": 0,
            "wave_count": 2,
            "wave_started_at": "2025-01-01T12:00:01Z",
            "baking_since": None,
            "finished_at": "2025-01-01T12:10:00Z",
            "conditions": [
                {
                    "type": ConditionType.HALTED.value,
                    "status": ConditionStatus.TRUE.value,
                    "reason": Reason.GATE_FAILED.value,
                    "message": "Wave 0 failed its health gate: edge: Not Ready within 600s (Provisioning)",
                    "lastTransitionTime": "2025-01-01T12:10:00Z",
                    "observedGeneration": 0,
                }
            ],
            "total": {
                "size": 20,
                "worst": "rolled_back",
                "counts": {"failed": 0, "rolled_back": 2, "upgrading": 0, "pending": 18, "skipped": 0, "healthy": 0},
            },
            "waves": [
                {
                    "index": 0,
                    "canary": True,
                    "current": True,
                    "size": 2,
                    "clusters": ["east"],
                    "worst": "rolled_back",
                    "counts": {"failed": 0, "rolled_back": 2, "upgrading": 0, "pending": 0, "skipped": 0, "healthy": 0},
                },
                {
                    "index": 1,
                    "canary": False,
                    "current": False,
                    "size": 18,
                    "clusters": ["east"],
                    "worst": "pending",
                    "counts": {
                        "failed": 0,
                        "rolled_back": 0,
                        "upgrading": 0,
                        "pending": 18,
                        "skipped": 0,
                        "healthy": 0,
                    },
                },
            ],
            "blocked": [
                {
                    "gateway": "edge",
                    "cluster": "east",
                    "wave": 0,
                    "state": "rolled_back",
                    "reason": "Not Ready within 600s (Provisioning)",
                }
            ],
        },
    },
)


class RolloutFilter(django_filters.FilterSet):
    phase = django_filters.ChoiceFilter(choices=RolloutPhase.choices)
    target_release = django_filters.CharFilter(field_name="target_release__name")

    class Meta:
        model = Rollout
        fields = ("name", "phase", "target_release")


def _operation(name: str, description: str) -> Any:
    return extend_schema(
        operation_id=f"rollouts_{name}", request=None, responses={200: RolloutSerializer}, description=description
    )


@extend_schema_view(
    list=extend_schema(operation_id="rollouts_list"),
    create=extend_schema(
        operation_id="rollouts_create",
        examples=[ROLLOUT_EXAMPLE],
        description="Select the gateways, plan their waves and claim them. 409 names the other "
        "rollout when a selected gateway is already in an active one.",
    ),
    retrieve=extend_schema(operation_id="rollouts_retrieve", examples=[STATUS_EXAMPLE]),
)
class RolloutViewSet(
    mixins.CreateModelMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """Rollouts of a release over a selection of gateways, in health-gated waves."""

    serializer_class = RolloutSerializer
    permission_classes = (IsAuthenticated,)
    filterset_class = RolloutFilter
    search_fields = ("name",)
    ordering_fields = ("name", "created_at", "phase")
    queryset = Rollout.objects.none()  # for the schema; requests use get_queryset

    def get_permissions(self) -> list[Any]:
        if self.action == "create":
            return [IsPlatformAdmin()]
        return super().get_permissions()

    def get_queryset(self) -> QuerySet[Rollout]:
        if not is_platform_admin(self.request.user):
            return Rollout.objects.none()
        targets = Prefetch(
            "targets",
            queryset=RolloutTarget.objects.only(
                "rollout_id", "gateway_name", "cluster_name", "wave", "state", "reason"
            ),
        )
        return Rollout.objects.select_related("target_release", "created_by").prefetch_related(targets)

    def perform_create(self, serializer: Any) -> None:
        rollout = Rollout(created_by=self.request.user, **serializer.validated_data)
        try:
            serializer.instance = operations.create_rollout(rollout)
        except PlanError as exc:
            raise ValidationError({exc.field: [str(exc)]}) from None
        except operations.RolloutConflict as exc:
            raise ApiConflict(str(exc)) from None
        record(self.request.user, "create", rollout)

    def _run(self, request: Request, operation: Any) -> Response:
        rollout = self.get_object()
        try:
            operation(rollout.pk, request.user.username)
        except operations.RolloutConflict as exc:
            raise ApiConflict(str(exc)) from None
        record(request.user, self.action, rollout)
        return Response(self.get_serializer(self.get_queryset().get(pk=rollout.pk)).data)

    @_operation(
        "pause", "Start no further gateway; upgrades under way finish. From Pending, Progressing or AwaitingApproval."
    )
    @action(detail=True, methods=["post"])
    def pause(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self._run(request, operations.pause)

    @_operation("resume", "Continue a Paused rollout where it stopped.")
    @action(detail=True, methods=["post"])
    def resume(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self._run(request, operations.resume)

    @_operation("abort", "Stop for good and release the gateways for another rollout; nothing is rolled back.")
    @action(detail=True, methods=["post"])
    def abort(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self._run(request, operations.abort)

    @extend_schema(operation_id="rollouts_targets_list", responses={200: RolloutTargetSerializer(many=True)})
    @action(detail=True, methods=["get"], serializer_class=RolloutTargetSerializer, filterset_class=None)
    def targets(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Every gateway of the rollout: its wave, state, times, and reason; in wave order."""
        rollout = self.get_object()
        targets = RolloutTarget.objects.filter(rollout=rollout).select_related("previous_release")
        page = self.paginate_queryset(targets.order_by("wave", "position"))
        return self.get_paginated_response(RolloutTargetSerializer(page, many=True).data)

    @extend_schema(operation_id="rollouts_events_list", responses={200: RolloutEventSerializer(many=True)})
    @action(detail=True, methods=["get"], serializer_class=RolloutEventSerializer, filterset_class=None)
    def events(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The rollout's event history, newest first."""
        rollout = self.get_object()
        page = self.paginate_queryset(rollout.events.all())
        return self.get_paginated_response(RolloutEventSerializer(page, many=True).data)

    @extend_schema(operation_id="rollouts_plan_retrieve", responses={200: WavePlanSerializer})
    @action(detail=True, methods=["get"], serializer_class=WavePlanSerializer, filterset_class=None)
    def plan(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The current wave's plan, gateway by gateway, with its plan_hash; 404 when the wave needs no approval or is
        not planned yet."""
        rollout = self.get_object()
        plan = WavePlan.objects.filter(rollout=rollout, wave=rollout.current_wave).select_related("decided_by").first()
        if plan is None:
            raise NotFound("The current wave has no plan: it needs no approval, or is not planned yet.")
        return Response(WavePlanSerializer(WavePlanSerializer.of(plan)).data)

    def _decide(self, request: Request, serializer_class: Any, decide: Any) -> Response:
        rollout = self.get_object()
        body = serializer_class(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            plan = decide(rollout.pk, request.user, *body.validated_data.values())
        except approvals.ApprovalRefused as exc:
            if exc.refusal == Refusal.SELF_APPROVAL:
                raise PermissionDenied(exc.message) from None
            raise ApiConflict(exc.message) from None
        record(
            request.user,
            self.action,
            rollout,
            {
                "wave": plan.wave,
                "plan_hash": plan.plan_hash,
                **{key: value for key, value in body.validated_data.items() if key != "plan_hash"},
            },
        )
        return Response(self.get_serializer(self.get_queryset().get(pk=rollout.pk)).data)

    @extend_schema(
        operation_id="rollouts_approve",
        request=ApproveSerializer,
        responses={200: RolloutSerializer},
        description="Approve the current wave's plan by its plan_hash; the wave then applies that plan, and only it. "
        "Platform admins other than the rollout's creator (unless ROLLOUT_ALLOW_SELF_APPROVAL): the creator gets "
        "403. 409 when no plan waits, or when plan_hash is not the waiting plan's (the message names the current).",
    )
    @action(detail=True, methods=["post"], serializer_class=RolloutSerializer)
    def approve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self._decide(request, ApproveSerializer, approvals.approve)

    @extend_schema(
        operation_id="rollouts_reject",
        request=RejectSerializer,
        responses={200: RolloutSerializer},
        description="Reject the current wave's plan: the rollout halts (Halted, reason Rejected) with the reason. "
        "409 when no plan waits.",
    )
    @action(detail=True, methods=["post"], serializer_class=RolloutSerializer)
    def reject(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self._decide(request, RejectSerializer, approvals.reject)
