"""Read what a cluster holds for its gateways from the Kubernetes API alone; never run helm.

Helm's release Secrets carry status, revision, chart version and applied values, so a few LISTs
tell the state of a release. ``observe_gateway`` reads one gateway's namespace (a pass);
``take_snapshot`` reads a whole cluster in a few paged LISTs (the fleet resync) and answers the
same ``GatewayView`` for each gateway from memory.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from workers.drivers import errors
from workers.drivers.helm_storage import HELM_OWNER_SELECTOR, StoredRelease, latest_releases
from workers.drivers.kube import KubeClient
from workers.reconcile.gateway.request import GatewayRequest

__all__ = ["ClusterSnapshot", "GatewayView", "observe_gateway", "route_resource", "take_snapshot"]

INSTANCE_LABEL = "app.kubernetes.io/instance"
WORKLOADS = (("apps/v1", "statefulsets"), ("apps/v1", "deployments"))
GRPC_ROUTES = ("gateway.networking.k8s.io/v1", "grpcroutes")
OPENSHIFT_ROUTES = ("route.openshift.io/v1", "routes")


@dataclass(frozen=True)
class GatewayView:
    """One gateway's objects as the cluster holds them: its latest release record, workloads and routes."""

    release: StoredRelease | None
    workloads: list[dict[str, Any]] = field(default_factory=list, repr=False)
    routes: list[dict[str, Any]] = field(default_factory=list, repr=False)
    namespace_present: bool = True


def route_resource(values: dict[str, Any] | None) -> tuple[str, str] | None:
    """The route API a gateway's values ask the chart for, if any."""
    values = values or {}
    if values.get("grpcRoute", {}).get("enabled"):
        return GRPC_ROUTES
    if values.get("openshiftRoute", {}).get("enabled"):
        return OPENSHIFT_ROUTES
    return None


def observe_gateway(kube: KubeClient, request: GatewayRequest) -> GatewayView:
    """One namespace: the release records, the workloads and the route of one gateway."""
    ns, release = request.namespace, request.release
    secrets = kube.list_objects("v1", "secrets", ns, f"{HELM_OWNER_SELECTOR},name={release}")
    selector = f"{INSTANCE_LABEL}={release}"
    workloads = [obj for api, plural in WORKLOADS for obj in kube.list_objects(api, plural, ns, selector)]
    resource = route_resource(request.values)
    routes = kube.list_objects(*resource, ns, selector) if resource else []
    return GatewayView(release=latest_releases(secrets).get((ns, release)), workloads=workloads, routes=routes)


@dataclass(frozen=True)
class ClusterSnapshot:
    """Every release, workload and route of a cluster, indexed by (namespace, release)."""

    releases: dict[tuple[str, str], StoredRelease]
    workloads: dict[tuple[str, str], list[dict[str, Any]]]
    routes: dict[tuple[str, tuple[str, str], str], list[dict[str, Any]]]
    namespaces: frozenset[str]

    def view(self, request: GatewayRequest) -> GatewayView:
        key = (request.namespace, request.release)
        resource = route_resource(request.values)
        routes = self.routes.get((request.namespace, resource, request.release), []) if resource else []
        return GatewayView(
            release=self.releases.get(key),
            workloads=self.workloads.get(key, []),
            routes=routes,
            namespace_present=request.namespace in self.namespaces,
        )


def _by_instance(items: list[dict[str, Any]]) -> dict[tuple[str, str], list[dict[str, Any]]]:
    grouped: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for obj in items:
        meta = obj.get("metadata", {})
        grouped[(meta.get("namespace", ""), (meta.get("labels") or {}).get(INSTANCE_LABEL, ""))].append(obj)
    return grouped


def _list_if_served(kube: KubeClient, api_version: str, plural: str, selector: str) -> list[dict[str, Any]]:
    try:
        return kube.list_objects(api_version, plural, None, selector)
    except errors.NotFound:  # the cluster does not serve this API at all
        return []


def take_snapshot(
    kube: KubeClient, managed_selector: str, route_resources: tuple[tuple[str, str], ...]
) -> ClusterSnapshot:
    """A few paged, cluster-wide LISTs: Helm's records, the chart's workloads and routes, managed namespaces."""
    releases = latest_releases(kube.list_objects("v1", "secrets", None, HELM_OWNER_SELECTOR))
    workloads = _by_instance(
        [obj for api, plural in WORKLOADS for obj in kube.list_objects(api, plural, None, INSTANCE_LABEL)]
    )
    routes: dict[tuple[str, tuple[str, str], str], list[dict[str, Any]]] = {}
    for resource in route_resources:
        for (ns, instance), items in _by_instance(_list_if_served(kube, *resource, INSTANCE_LABEL)).items():
            routes[(ns, resource, instance)] = items
    managed = kube.list_objects("v1", "namespaces", None, managed_selector)
    namespaces = frozenset(ns["metadata"]["name"] for ns in managed)
    return ClusterSnapshot(releases=releases, workloads=dict(workloads), routes=routes, namespaces=namespaces)
