"""ManagedCluster endpoints (platform admins only). The kubeconfig is write-only."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db import transaction
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from controlplane.api.errors import ApiConflict
from controlplane.api.fields import StrictCharField
from controlplane.api.permissions import IsPlatformAdmin
from controlplane.api.schema import crud_operation_ids
from controlplane.api.serializers import ModelCleanSerializer, NestedObjectSerializer
from controlplane.api.views import ReconciledModelViewSet
from controlplane.audit import record
from controlplane.dispatch import enqueue_on_commit
from controlplane.flavours import Flavour
from controlplane.image_policy import OverrideMode
from controlplane.maintenance_windows import MAX_DURATION
from controlplane.models import ClusterEvent, ManagedCluster
from controlplane.tasks import TaskName
from controlplane.window_override import MAX_OVERRIDE_MINUTES, override_window, wake_held_gateways

__all__ = ["ClusterSerializer", "ClusterViewSet"]


class ClusterCapabilitiesSerializer(serializers.Serializer):
    schema_description = "Which optional APIs the last probe found served; null until a probe has looked."

    agent_sandbox = serializers.BooleanField(allow_null=True, read_only=True, help_text="agents.x-k8s.io")
    grpc_route = serializers.BooleanField(allow_null=True, read_only=True, help_text="gateway.networking.k8s.io/v1")
    openshift_route = serializers.BooleanField(allow_null=True, read_only=True, help_text="route.openshift.io/v1")
    cert_manager = serializers.BooleanField(allow_null=True, read_only=True, help_text="cert-manager.io/v1")
    backend_tls_policy = serializers.BooleanField(
        allow_null=True,
        read_only=True,
        help_text="gateway.networking.k8s.io BackendTLSPolicy (v1 or v1alpha3): TLS from a route to the pod",
    )


class MaintenanceWindowStatusSerializer(serializers.Serializer):
    schema_description = (
        "Whether upgrades and rollout waves may start on the cluster now and, if not, when they may next."
    )

    open = serializers.BooleanField(read_only=True, help_text="Changes may start now.")
    next_start = serializers.DateTimeField(
        allow_null=True,
        read_only=True,
        help_text="When changes may next start: now when open; null when no window opens within a year.",
    )
    message = StrictCharField(read_only=True)
    override_until = serializers.DateTimeField(
        allow_null=True,
        read_only=True,
        help_text="A platform admin's override holds the cluster open until then.",
    )
    override_reason = StrictCharField(read_only=True)


class ClusterStatusSerializer(serializers.Serializer):
    reachable = serializers.BooleanField(allow_null=True, read_only=True)
    capabilities = ClusterCapabilitiesSerializer(read_only=True)
    kubernetes_version = StrictCharField(read_only=True)
    last_probe_at = serializers.DateTimeField(allow_null=True, read_only=True)
    message = StrictCharField(source="probe_message", read_only=True)
    maintenance_window = MaintenanceWindowStatusSerializer(source="maintenance_status", read_only=True)


class RecurringWindowSerializer(NestedObjectSerializer):
    schema_description = (
        "Opens at each time the cron expression names on the wall clock of the time zone, for the duration "
        "(elapsed time)."
    )

    cron = StrictCharField(max_length=128, help_text="Five fields: minute hour day-of-month month day-of-week.")
    duration = StrictCharField(
        max_length=32,
        help_text=f"How long it stays open: '90m', '4h', '1h30m', '2d'; at most {MAX_DURATION.days}d.",
    )
    timezone = StrictCharField(max_length=64, help_text="An IANA time zone, such as Europe/Berlin or UTC.")


class FreezeSerializer(NestedObjectSerializer):
    schema_description = "A freeze: recurring (cron, duration, timezone) or fixed (start and end, with offsets)."

    cron = StrictCharField(max_length=128, required=False, help_text="As in a window.")
    duration = StrictCharField(max_length=32, required=False, help_text="As in a window.")
    timezone = StrictCharField(max_length=64, required=False, help_text="As in a window.")
    start = StrictCharField(max_length=64, required=False, help_text="ISO 8601 with an offset.")
    end = StrictCharField(max_length=64, required=False, help_text="ISO 8601 with an offset; after start.")


class MaintenanceWindowsSerializer(NestedObjectSerializer):
    schema_description = (
        "When upgrades and rollout waves may start on the cluster: inside an allowed window (any time when there "
        "is none) and outside every freeze. New installs and deletes are held too with hold_installs_and_deletes."
    )

    windows = RecurringWindowSerializer(many=True, required=False, max_length=32)
    freezes = FreezeSerializer(many=True, required=False, max_length=64)
    hold_installs_and_deletes = serializers.BooleanField(
        required=False,
        help_text="New installs and deletes wait for a window too (default false).",
    )


class OverrideWindowSerializer(NestedObjectSerializer):
    reason = StrictCharField(max_length=1024, help_text="Why the cluster's windows and freezes are overridden.")
    minutes = serializers.IntegerField(
        min_value=1,
        max_value=MAX_OVERRIDE_MINUTES,
        default=60,
        help_text="How long the override lasts, from now.",
    )


class ImagePolicySerializer(NestedObjectSerializer):
    schema_description = (
        "Whether tenants may override their release's images on this cluster and, if they may, from which "
        "repositories and whether a digest is required."
    )

    overrides = serializers.ChoiceField(
        choices=[(m.value, m.name) for m in OverrideMode],
        help_text="Whether tenants may override their release's images here.",
    )
    repositories = serializers.ListField(
        child=StrictCharField(max_length=512),
        required=False,
        max_length=64,
        help_text="With overrides allowed: the repositories tenants may use, each exact (registry/path), a prefix "
        "ending in '/', or '*' for any.",
    )
    require_digest = serializers.BooleanField(required=False, help_text="Whether an override must be digest-pinned.")


class ClusterSerializer(ModelCleanSerializer):
    schema_description = (
        "A Kubernetes or OpenShift cluster gateways are installed on, reached with the kubeconfig given at "
        "registration (write-only). Its status says whether the last probe reached it and which optional APIs "
        "it serves."
    )

    kubeconfig = StrictCharField(write_only=True, trim_whitespace=False, style={"base_template": "textarea.html"})
    allowed_route_domains = serializers.ListField(
        child=StrictCharField(max_length=253),
        required=False,
        max_length=32,
        help_text="Domains, besides base_domain, under which gateway route hosts may be placed.",
    )
    image_policy = ImagePolicySerializer(
        required=False,
        allow_null=True,
        help_text="The cluster's image policy; null follows the platform setting (GATEWAY_IMAGE_OVERRIDES). A change "
        "that no longer allows a running gateway's image leaves it running, with ImagePolicy=False (NotAllowed).",
    )
    maintenance_windows = MaintenanceWindowsSerializer(required=False)
    status = ClusterStatusSerializer(source="*", read_only=True)
    immutable_fields = ("name",)

    class Meta:
        model = ManagedCluster
        fields = (
            "id",
            "name",
            "flavour",
            "kubeconfig",
            "base_domain",
            "allowed_route_domains",
            "gateway_api",
            "network_policy",
            "trusted_ca_pem",
            "image_policy",
            "require_signed_releases",
            "maintenance_windows",
            "rollouts_require_approval",
            "status",
            "created_at",
            "updated_at",
        )
        read_only_fields = ("id", "created_at", "updated_at")


class ClusterEventSerializer(serializers.ModelSerializer):
    schema_description = "A change of the cluster's reachability: Unreachable (Warning) or Reachable (Normal)."

    class Meta:
        model = ClusterEvent
        fields = ("timestamp", "type", "reason", "message")
        read_only_fields = fields


class ClusterFilter(django_filters.FilterSet):
    class Meta:
        model = ManagedCluster
        fields = {
            "name": ["exact"],
            "flavour": ["exact"],
            "reachable": ["exact"],
            "gateway_api": ["exact"],
            "network_policy": ["exact"],
        }


@crud_operation_ids(
    "clusters",
    create={
        "examples": [
            OpenApiExample(
                "An OpenShift cluster",
                request_only=True,
                value={
                    "name": "east",
                    "flavour": Flavour.OPENSHIFT.value,
                    "kubeconfig": "apiVersion: v1\nkind: Config\n# ... clusters, users, contexts ...",
                    "base_domain": "apps.east.example.com",
                    "gateway_api": False,
                },
            )
        ]
    },
)
class ClusterViewSet(ReconciledModelViewSet):
    """Managed Kubernetes clusters. Platform admins only; the kubeconfig is write-only."""

    queryset = ManagedCluster.objects.all()
    serializer_class = ClusterSerializer
    permission_classes = (IsPlatformAdmin,)
    filterset_class = ClusterFilter
    search_fields = ("name", "base_domain")
    ordering_fields = ("name", "created_at")
    reconcile_task = TaskName.PROBE_CLUSTER

    def perform_update(self, serializer: Any) -> None:
        """A change of the windows wakes the gateways that waited for them: they judge again."""
        windows_before = serializer.instance.maintenance_windows
        super().perform_update(serializer)
        if serializer.instance.maintenance_windows != windows_before:
            wake_held_gateways(serializer.instance)

    def perform_destroy(self, instance: ManagedCluster) -> None:
        if instance.gateways.exists():
            raise ApiConflict("The cluster still has gateways; delete them first.")
        super().perform_destroy(instance)

    @extend_schema(operation_id="clusters_events_list", responses={200: ClusterEventSerializer(many=True)})
    @action(detail=True, methods=["get"], serializer_class=ClusterEventSerializer, filterset_class=None)
    def events(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The cluster's reachability events (Unreachable, Reachable), newest first."""
        cluster = self.get_object()
        page = self.paginate_queryset(cluster.events.all())
        return self.get_paginated_response(ClusterEventSerializer(page, many=True).data)

    @extend_schema(operation_id="clusters_probe", request=None, responses={202: ClusterSerializer})
    @action(detail=True, methods=["post"])
    def probe(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Probe the cluster now; the result appears in ``status`` shortly."""
        with transaction.atomic():
            cluster = self.get_object()
            record(request.user, "probe", cluster)
            enqueue_on_commit(TaskName.PROBE_CLUSTER, cluster.pk)
        return Response(self.get_serializer(cluster).data, status=202)

    @extend_schema(
        operation_id="clusters_override_window", request=OverrideWindowSerializer, responses={200: ClusterSerializer}
    )
    @action(detail=True, methods=["post"], url_path="override-window", serializer_class=OverrideWindowSerializer)
    def override_window(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Let upgrades and rollout waves start now, whatever the cluster's windows and freezes say, for
        ``minutes`` (60 by default, at most a day); audited with the reason. Changes that waited start now."""
        body = OverrideWindowSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        with transaction.atomic():
            cluster = self.get_object()
            override_window(cluster, request.user, body.validated_data["reason"], body.validated_data["minutes"])
        return Response(ClusterSerializer(cluster, context=self.get_serializer_context()).data)
