"""Gateway endpoints. Users see and change only their own gateways (another tenant's is a 404, like a
missing one); platform admins see all. Operations run through `gateways.operations`, as in the console."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import django_filters
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet, Subquery
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from controlplane.api.errors import ApiConflict
from controlplane.api.permissions import is_platform_admin
from controlplane.api.schema import crud_operation_ids
from controlplane.api.views import ReconciledModelViewSet
from controlplane.audit import record
from controlplane.dispatch import enqueue_on_commit
from controlplane.models import ManagedCluster
from controlplane.tasks import TaskName
from gateways import operations
from gateways.api import listing
from gateways.api.plans import PLAN_EXAMPLE, WAIT_PARAMETER, GatewayPlanSerializer, plan_response, wait_seconds
from gateways.api.serializers import GatewayEventSerializer, GatewaySerializer
from gateways.choices import DatabaseProvider, Phase
from gateways.image_rules import disallowed_overrides
from gateways.models import Gateway
from gateways.pass_queue import asked_by
from gateways.plans import request_plan

__all__ = ["GatewayViewSet"]


def _named(queryset: QuerySet, field: str, value: str) -> Subquery:
    """The id of the row whose ``field`` is ``value``, as a scalar subquery: the database resolves it first, so
    the (cluster|owner, name, id) index serves the filtered page in order, instead of a join and a sort."""
    return Subquery(queryset.filter(**{field: value}).values("pk")[:1])


class GatewayFilter(django_filters.FilterSet):
    cluster = django_filters.CharFilter(method="filter_cluster", label="The cluster's name.")
    owner = django_filters.CharFilter(method="filter_owner", label="The owner's username.")
    phase = django_filters.ChoiceFilter(choices=Phase.choices)

    def filter_cluster(self, queryset: QuerySet[Gateway], name: str, value: str) -> QuerySet[Gateway]:
        return queryset.filter(cluster=_named(ManagedCluster.objects.all(), "name", value))

    def filter_owner(self, queryset: QuerySet[Gateway], name: str, value: str) -> QuerySet[Gateway]:
        return queryset.filter(owner=_named(get_user_model().objects.all(), "username", value))

    class Meta:
        model = Gateway
        fields = ("name", "cluster", "owner", "phase", "suspended")


FORCE_PARAMETER = OpenApiParameter(
    "force",
    bool,
    OpenApiParameter.QUERY,
    required=False,
    description="Platform admins only: remove what the release left even if helm uninstall fails.",
)


class DeleteQuerySerializer(serializers.Serializer):
    force = serializers.BooleanField(default=False)


GATEWAY_EXAMPLE = OpenApiExample(
    "A routed gateway with OIDC and an external database",
    request_only=True,
    value={
        "name": "edge",
        "cluster": "east",
        "route": {"host": "edge.apps.example.com"},
        "oidc": {"issuer": "https://id.example.com", "audience": "openshell", "roles_claim": "groups"},
        "database": {"provider": DatabaseProvider.EXTERNAL.value, "uri": "postgresql://gw:secret@db.example.com/gw"},
        "labels": {"team": "payments"},
    },
)


GATEWAY_IMAGES_EXAMPLE = OpenApiExample(
    "A gateway overriding its release's images (where the image policy allows it)",
    request_only=True,
    value={
        "name": "canary",
        "cluster": "east",
        "image": "ghcr.io/nvidia/openshell/gateway:1.2.4",
        "supervisor_image": "ghcr.io/nvidia/openshell/supervisor@sha256:" + "0" * 64,
    },
)


@crud_operation_ids(
    "gateways",
    create={"examples": [GATEWAY_EXAMPLE, GATEWAY_IMAGES_EXAMPLE]},
    destroy={
        "responses": {202: GatewaySerializer},
        "parameters": [FORCE_PARAMETER],
        "description": "Marks the gateway Deleting; a worker uninstalls it, then removes the record. After "
        "GATEWAY_DELETE_MAX_FAILURES failed uninstalls, or at once with `?force=true` (platform admins only), the "
        "worker removes what the release left: its cluster-scoped objects, the namespace, and the control plane's "
        "objects.",
    },
)
class GatewayViewSet(ReconciledModelViewSet):
    """Tenant gateways. Users see and change only their own; platform admins see all."""

    queryset = Gateway.objects.select_related("cluster", "owner", "release", "deployed_release")
    serializer_class = GatewaySerializer
    permission_classes = (IsAuthenticated,)
    filterset_class = GatewayFilter
    search_fields = ("name", "namespace", "image")
    ordering_fields = ("name", "created_at", "phase")
    reconcile_task = TaskName.RECONCILE_GATEWAY
    reading_actions = frozenset({"plan"})

    def get_queryset(self) -> QuerySet[Gateway]:
        queryset = super().get_queryset()
        if not is_platform_admin(self.request.user):
            queryset = queryset.filter(owner=self.request.user)
        return queryset

    def page_reader(self) -> Callable[[list[Any]], list[dict[str, Any]]] | None:
        """The list's pages are read by primary key as list items (see `listing`); other pages hold instances."""
        return listing.read if self.action == "list" else None

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self.get_paginated_response(self.paginate_queryset(self.filter_queryset(self.get_queryset())))

    def enqueue(self, instance: Gateway) -> None:
        """A platform admin's create or edit goes to the platform's queue, a tenant's to its shard's."""
        enqueue_on_commit(self.reconcile_task, instance.pk, queue=asked_by(self.request.user))

    def _operate(self, operation: Any, status: int = 202) -> Response:
        """Run one `gateways.operations` function on the (locked, If-Match-checked) gateway."""
        with transaction.atomic():
            (gateway,) = operation(Gateway.objects.filter(pk=self.get_object().pk), self.request.user, "api")
        return Response(self.get_serializer(gateway).data, status=status)

    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        query = DeleteQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        force = query.validated_data["force"]
        if force and not is_platform_admin(request.user):
            raise PermissionDenied("Only a platform admin may force a delete; delete without ?force=true.")
        return self._operate(partial(operations.request_deletion, force=force))

    @extend_schema(
        operation_id="gateways_retry",
        request=None,
        responses={202: GatewaySerializer},
        description="Reset the failure counter and backoff, leave Failed, and reconcile now.",
    )
    @action(detail=True, methods=["post"])
    def retry(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self._operate(operations.retry)

    @extend_schema(
        operation_id="gateways_resync",
        request=None,
        responses={202: GatewaySerializer},
        description="Reconcile now, without touching the failure counter.",
    )
    @action(detail=True, methods=["post"])
    def resync(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self._operate(operations.resync)

    @extend_schema(operation_id="gateways_events_list", responses={200: GatewayEventSerializer(many=True)})
    @action(detail=True, methods=["get"], serializer_class=GatewayEventSerializer, filterset_class=None)
    def events(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The gateway's event history, newest first."""
        gateway = self.get_object()
        page = self.paginate_queryset(gateway.events.all())
        return self.get_paginated_response(GatewayEventSerializer(page, many=True).data)

    @extend_schema(
        operation_id="gateways_plan",
        request=None,
        parameters=[WAIT_PARAMETER],
        responses={200: GatewayPlanSerializer, 202: GatewayPlanSerializer},
        examples=[PLAN_EXAMPLE],
        description="Preview what reconciling the gateway's current spec would do against what is deployed. "
        "Nothing is applied. Answers 202 with the pending plan and its `Location` (or, with `?wait`, 200 once ready).",
    )
    @action(detail=True, methods=["post"], url_path="plan", url_name="plan", filterset_class=None)
    def plan(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        seconds = wait_seconds(request)
        gateway = self.get_object()  # a reading action: no row lock (see reading_actions)
        if gateway.deletion_requested_at is not None:
            raise ApiConflict("The gateway is being deleted; there is nothing to plan.")
        return plan_response(request, request_plan(request.user, gateway, gateway), seconds)

    @extend_schema(
        operation_id="gateways_plan_spec",
        request=GatewaySerializer,
        parameters=[WAIT_PARAMETER],
        responses={200: GatewayPlanSerializer, 202: GatewayPlanSerializer},
        examples=[GATEWAY_EXAMPLE, PLAN_EXAMPLE],
        description="Preview a would-be gateway: the body is validated as a create (or, when you already have a "
        "gateway of that name, as a full update of it), and nothing is saved. Answers as `gateways_plan`.",
    )
    @action(detail=False, methods=["post"], url_path="plan", url_name="plan-spec", filterset_class=None)
    def plan_spec(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        seconds = wait_seconds(request)
        name = request.data.get("name") if isinstance(request.data, dict) else None
        lookup = isinstance(name, str) and "\x00" not in name  # PostgreSQL refuses NUL; validation reports it
        existing = Gateway.objects.filter(owner=request.user, name=name).first() if lookup else None
        serializer = GatewaySerializer(existing, data=request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        if existing is not None and existing.deletion_requested_at is not None:
            raise ApiConflict("The gateway is being deleted; it can no longer be changed.")
        candidate = serializer.build_candidate(serializer.validated_data)
        candidate.assign_namespace()
        return plan_response(request, request_plan(request.user, candidate, existing), seconds)

    def perform_create(self, serializer: Any) -> None:
        super().perform_create(serializer)
        self._audit_image_exception(serializer.instance, granted_before=None)

    def perform_update(self, serializer: Any) -> None:
        if serializer.instance.deletion_requested_at is not None:
            raise ApiConflict("The gateway is being deleted; it can no longer be changed.")
        instance = serializer.instance
        granted_before = (instance.image, instance.supervisor_image) if instance.image_override_by_admin else None
        super().perform_update(serializer)
        self._audit_image_exception(instance, granted_before=granted_before)

    def _audit_image_exception(self, gateway: Gateway, *, granted_before: tuple[str, str] | None) -> None:
        """Record a platform admin's override that the policy would refuse, each time one is granted (the images
        that were already an exception, ``granted_before``, are not granted again)."""
        problems = disallowed_overrides(gateway) if gateway.image_override_by_admin else {}
        if problems and granted_before != (gateway.image, gateway.supervisor_image):
            record(self.request.user, "allow_image_override", gateway, {"problems": problems})
