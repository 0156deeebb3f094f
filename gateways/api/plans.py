"""Plan API shapes and the plan resource (``/api/v1/gateways/plans/{id}/``).

The result is computed by a worker and stored as JSON; these serializers document its shape in the
schema (``PlanResultField``) without re-validating it.
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.urls import reverse
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import mixins, serializers, viewsets
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from controlplane.api.fields import StrictCharField, StrictIntegerField
from gateways.choices import PlanAction, PlanStatus
from gateways.models import GatewayPlan
from gateways.plans import MAX_WAIT_SECONDS, visible_plans, wait

__all__ = [
    "PLAN_EXAMPLE",
    "WAIT_PARAMETER",
    "GatewayPlanSerializer",
    "GatewayPlanViewSet",
    "plan_response",
    "wait_seconds",
]

CHANGES = (("added", "added"), ("removed", "removed"), ("changed", "changed"))


class FieldChangeSerializer(serializers.Serializer):
    path = StrictCharField(help_text="Dotted path, lists by index: `spec.template.spec.containers[0].image`.")
    change = serializers.ChoiceField(choices=CHANGES)
    before = serializers.JSONField(allow_null=True, help_text="Absent (null) for an added field; secrets redacted.")
    after = serializers.JSONField(allow_null=True, help_text="Absent (null) for a removed field; secrets redacted.")


class ObjectDiffSerializer(serializers.Serializer):
    api_version = StrictCharField()
    kind = StrictCharField()
    namespace = StrictCharField(allow_blank=True, help_text="As rendered; empty when the chart sets none.")
    name = StrictCharField()
    change = serializers.ChoiceField(choices=CHANGES)
    fields = FieldChangeSerializer(many=True, help_text="Field-level changes (empty for added or removed objects).")
    diff = StrictCharField(allow_blank=True, help_text="Unified diff of the object's YAML, deployed to desired.")


class CheckSerializer(serializers.Serializer):
    name = StrictCharField()
    state = serializers.ChoiceField(
        choices=(("present", "present"), ("will-create", "will-create"), ("missing", "missing"))
    )
    message = StrictCharField()


class DeployedReleaseSerializer(serializers.Serializer):
    name = StrictCharField()
    revision = StrictIntegerField()
    status = StrictCharField()
    chart_version = StrictCharField(allow_null=True)


class PlanResultSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=PlanAction.choices, help_text="What the reconciler would do.")
    reasons = serializers.ListField(child=StrictCharField(), help_text="Why; for `blocked`, what is missing.")
    namespace = StrictCharField()
    release = DeployedReleaseSerializer(allow_null=True, help_text="The deployed release; null when none.")
    chart_version = StrictCharField()
    kubernetes_version = StrictCharField(allow_null=True)
    values_diff = FieldChangeSerializer(many=True, help_text="Desired Helm values against the deployed ones.")
    objects = ObjectDiffSerializer(many=True, help_text="Objects added, removed or changed (Helm hooks left out).")
    unchanged_objects = StrictIntegerField()
    prerequisites = CheckSerializer(many=True)
    render_error = StrictCharField(allow_null=True, help_text="Why the chart did not render, if it did not.")


@extend_schema_field(PlanResultSerializer(allow_null=True))
class PlanResultField(serializers.JSONField):
    """The stored result, as the worker wrote it."""


class GatewayPlanSerializer(serializers.ModelSerializer):
    gateway = serializers.UUIDField(
        source="gateway_id",
        read_only=True,
        allow_null=True,
        help_text="The planned gateway; null for a would-be gateway.",
    )
    cluster = StrictCharField(source="cluster.name", read_only=True)
    owner = StrictCharField(source="owner.username", read_only=True)
    status = serializers.ChoiceField(choices=PlanStatus.choices, read_only=True)
    error = StrictCharField(read_only=True, help_text="Why a failed plan could not be computed.")
    result = PlanResultField(read_only=True, allow_null=True, help_text="Set once the plan is ready.")

    class Meta:
        model = GatewayPlan
        fields = ("id", "gateway", "name", "cluster", "owner", "status", "error", "result", "created_at", "finished_at")
        read_only_fields = fields


class WaitSerializer(serializers.Serializer):
    # Not strict: a query string is text.
    wait = serializers.IntegerField(required=False, default=0, min_value=0, max_value=MAX_WAIT_SECONDS)


WAIT_PARAMETER = OpenApiParameter(
    "wait",
    int,
    OpenApiParameter.QUERY,
    required=False,
    description=f"Seconds (0 to {MAX_WAIT_SECONDS}) to wait for the plan to finish. A finished plan is answered "
    "with 200; a plan still pending with 202.",
)

PLAN_EXAMPLE = OpenApiExample(
    "An image change: the StatefulSet's image, nothing else",
    response_only=True,
    status_codes=["200"],
    value={
        "id": "0b7c6c1e-3f0a-4f7e-9d43-8f5a1c2e9b10",
        "gateway": "5b1e2f9a-8c3d-4e6f-a1b2-c3d4e5f6a7b8",
        "name": "edge",
        "cluster": "east",
        "owner": "alice",
        "status": "ready",
        "error": "",
        "created_at": "2025-01-01T12:00:00Z",
        "finished_at": "2025-01-01T12:00:02Z",
        "result": {
            "action": "upgrade",
            "reasons": ["The deployed release's values or chart version differ: helm upgrade --reset-values."],
            "namespace": "gw-edge-5b1e2f9a",
            "release": {"name": "edge", "revision": 1, "status": "deployed", "chart_version": "0.1.0"},
            "chart_version": "0.1.0",
            "kubernetes_version": "v1.31.0",
            "values_diff": [{"path": "image.tag", "change": "changed", "before": "1.0.0", "after": "1.1.0"}],
            "objects": [
                {
                    "api_version": "apps/v1",
                    "kind": "StatefulSet",
                    "namespace": "",
                    "name": "edge",
                    "change": "changed",
                    "fields": [
                        {
                            "path": "spec.template.spec.containers[0].image",
                            "change": "changed",
                            "before": "ghcr.io/nvidia/openshell/gateway:1.0.0",
                            "after": "ghcr.io/nvidia/openshell/gateway:1.1.0",
                        }
                    ],
                    "diff": "--- deployed/apps/v1/StatefulSet/edge\n+++ desired/apps/v1/StatefulSet/edge\n...",
                }
            ],
            "unchanged_objects": 6,
            "prerequisites": [
                {"name": "Namespace", "state": "present", "message": "Namespace gw-edge-5b1e2f9a exists"},
                {
                    "name": "API Agent Sandbox (agents.x-k8s.io)",
                    "state": "present",
                    "message": "Agent Sandbox (agents.x-k8s.io): the cluster serves it "
                    "(agentSandbox.preflight.enabled is on)",
                },
            ],
            "render_error": None,
        },
    },
)


def wait_seconds(request: Request) -> int:
    """The validated ``?wait=`` (400 in the error shape when it is not an integer from 0 to the bound)."""
    query = WaitSerializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    return query.validated_data["wait"]


def plan_response(request: Request, plan: GatewayPlan, seconds: int) -> Response:
    """202 with ``Location`` while pending; after waiting up to ``seconds``, 200 once the plan is finished."""
    plan = wait(plan, seconds)
    body = GatewayPlanSerializer(plan, context={"request": request}).data
    location = reverse("gateways-api:gateway-plan-detail", args=(plan.pk,))
    status = 202 if plan.status == PlanStatus.PENDING else 200
    return Response(body, status=status, headers={"Location": request.build_absolute_uri(location)})


@extend_schema_view(retrieve=extend_schema(operation_id="gateways_plans_retrieve", examples=[PLAN_EXAMPLE]))
class GatewayPlanViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Plans of gateway specs. A plan is visible to its owner (and platform admins); others get 404."""

    serializer_class = GatewayPlanSerializer
    permission_classes = (IsAuthenticated,)
    queryset = GatewayPlan.objects.none()  # for the schema; requests use get_queryset
    lookup_value_regex = "[0-9a-fA-F-]{36}"

    def get_queryset(self) -> QuerySet[GatewayPlan]:
        return visible_plans(self.request.user).select_related("owner")
