"""Read what a cluster holds for its gateways from the Kubernetes API alone; never run helm.

Helm's release Secrets carry status, revision, chart version, applied values and the rendered
manifest, so a few LISTs tell the state of a release. ``observe_gateway`` reads one gateway's
namespace (a pass); ``take_snapshot`` reads a whole cluster in a few paged LISTs (the fleet resync)
and answers the same ``GatewayView`` for each gateway from memory. Both list the chart's objects by
the instance label, for the kinds of ``drift.DRIFT_KINDS``: a kind the cluster does not serve is
simply empty.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from workers.drivers import errors
from workers.drivers.helm_storage import HELM_OWNER_SELECTOR, StoredRelease, latest_releases
from workers.drivers.kube import KubeClient
from workers.reconcile.gateway.backend_tls.objects import (
    BACKEND_CA_LABEL,
    BACKEND_TLS_GROUP,
    BACKEND_TLS_PLURAL,
    BACKEND_TLS_VERSIONS,
    backend_ca_name,
    backend_tls_name,
)
from workers.reconcile.gateway.observation.cluster_reads import cluster_releases, judged_objects
from workers.reconcile.gateway.observation.drift import DRIFT_KINDS, INSTANCE_LABEL, Drift, manifest_objects
from workers.reconcile.gateway.observation.health import workload_ready
from workers.reconcile.gateway.request import DriftMode, GatewayRequest

__all__ = ["ClusterSnapshot", "GatewayView", "observe_gateway", "route_kind", "take_snapshot"]

WORKLOAD_KINDS = frozenset({"StatefulSet", "Deployment"})
BACKEND_TLS_KIND = "BackendTLSPolicy"
# kind -> the apiVersions to list it at, the first served one wins; and its plural.
LISTED_KINDS: dict[str, tuple[tuple[str, ...], str]] = {
    **{kind: ((api_version,), plural) for kind, (api_version, plural) in DRIFT_KINDS.items()},
    BACKEND_TLS_KIND: (tuple(f"{BACKEND_TLS_GROUP}/{v}" for v in BACKEND_TLS_VERSIONS), BACKEND_TLS_PLURAL),
}
WARNINGS = "type=Warning"
BACKEND_CAS = f"{BACKEND_CA_LABEL}=true"
TLS_SECRETS = "type=kubernetes.io/tls"  # what cert-manager and the chart's certgen hook write
# The kinds whose status the judge reads. The manifest's other kinds matter only for drift.
STATUS_KINDS = WORKLOAD_KINDS | {"GRPCRoute", "Route", BACKEND_TLS_KIND}
LiveObjects = Mapping[tuple[str, str], dict[str, Any]]


@dataclass(frozen=True)
class GatewayView:
    """One gateway's objects as the cluster holds them: its latest release record and its live objects.

    ``objects`` holds the release's objects of ``kinds``, keyed by (kind, name); ``route_kind`` is the
    route the values ask for, if any.
    """

    release: StoredRelease | None
    objects: LiveObjects = field(default_factory=dict, repr=False)
    kinds: frozenset[str] = frozenset()
    route_kind: str | None = None
    namespace_present: bool = True
    # The namespace's Warning events, read only while a workload is not ready (empty otherwise).
    warnings: tuple[dict[str, Any], ...] = field(default=(), repr=False)
    # The drift already judged for exactly these object versions (None: judge ``objects``, which are whole).
    drift: tuple[Drift, ...] | None = None
    # The apiVersion a pass found the BackendTLSPolicy served at ("": at none); None: the pass did not list it.
    backend_tls_api_version: str | None = None
    # The BackendCA ConfigMap as listed (a pass: whole; the fleet resync: its metadata); None: absent or not listed.
    backend_ca: dict[str, Any] | None = None
    # The resourceVersion of the server certificate Secret, as the fleet resync listed it (None: not listed).
    server_secret_version: str | None = None

    @property
    def workloads(self) -> list[dict[str, Any]]:
        return [obj for (kind, _), obj in self.objects.items() if kind in WORKLOAD_KINDS]

    def backend_tls_policy(self, release: str) -> dict[str, Any] | None:
        """The BackendTLSPolicy the control plane made for the release, as listed (None: absent or not listed)."""
        return self.objects.get((BACKEND_TLS_KIND, backend_tls_name(release)))

    @property
    def routes(self) -> list[dict[str, Any]]:
        return [obj for (kind, _), obj in self.objects.items() if kind == self.route_kind]


def route_kind(values: dict[str, Any] | None) -> str | None:
    """The route kind a gateway's values ask the chart for, if any."""
    values = values or {}
    if values.get("grpcRoute", {}).get("enabled"):
        return "GRPCRoute"
    if values.get("openshiftRoute", {}).get("enabled"):
        return "Route"
    return None


def _keyed(items: Iterable[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(obj.get("kind", ""), obj.get("metadata", {}).get("name", "")): obj for obj in items}


def _list_if_served(
    kube: KubeClient, kind: str, namespace: str | None, selector: str, *, metadata_only: bool = False
) -> list[dict[str, Any]]:
    """The objects of one kind (only their metadata, named by kind and apiVersion, with ``metadata_only``)."""
    return _list_served(kube, kind, namespace, selector, metadata_only=metadata_only)[1]


def _list_served(
    kube: KubeClient, kind: str, namespace: str | None, selector: str, *, metadata_only: bool = False
) -> tuple[str, list[dict[str, Any]]]:
    """The first apiVersion of ``kind`` the cluster serves ("": none) and its objects (see ``_list_if_served``)."""
    api_versions, plural = LISTED_KINDS[kind]
    for api_version in api_versions:
        try:
            if metadata_only:
                heads = kube.list_metadata(api_version, plural, namespace, selector)
                return api_version, [{"apiVersion": api_version, "kind": kind} | head for head in heads]
            return api_version, kube.list_objects(api_version, plural, namespace, selector)
        except errors.NotFound:  # the cluster does not serve this version of the API
            continue
    return "", []


def _get_if_served(kube: KubeClient, head: dict[str, Any]) -> dict[str, Any] | None:
    """A listed object read whole (None: deleted since it was listed)."""
    meta = head["metadata"]
    _, plural = LISTED_KINDS[head["kind"]]
    obj = kube.get_object(head["apiVersion"], plural, meta.get("namespace", ""), meta["name"])
    return None if obj is None else {"apiVersion": head["apiVersion"], "kind": head["kind"]} | obj


def _warnings_if_unready(
    kube: KubeClient, namespace: str | None, objects: Iterable[dict[str, Any]]
) -> tuple[dict[str, Any], ...]:
    """The Warning events (of one namespace, or every one) when some workload among ``objects`` is not ready."""
    workloads = [obj for obj in objects if obj.get("kind") in WORKLOAD_KINDS]
    if not workloads or all(workload_ready([obj]) for obj in workloads):
        return ()
    return tuple(kube.list_objects("v1", "events", namespace, field_selector=WARNINGS))


def pass_kinds(request: GatewayRequest, release: StoredRelease | None) -> frozenset[str]:
    """What a pass lists: the workloads and the route, and with drift detection the manifest's other kinds."""
    route = route_kind(request.values)
    kinds = set(WORKLOAD_KINDS)
    if route:
        kinds.add(route)
    if route == "GRPCRoute" or request.gateway_api:  # with no route, to find what a route left behind
        kinds.add(BACKEND_TLS_KIND)
    if release is not None and request.drift_detection is not DriftMode.DISABLED:
        kinds |= {str(obj.get("kind")) for obj in manifest_objects(release.manifest)} & DRIFT_KINDS.keys()
    return frozenset(kinds)


def observe_gateway(kube: KubeClient, request: GatewayRequest) -> GatewayView:
    """One namespace: the release records, then the release's objects of the kinds ``pass_kinds`` names."""
    ns, name = request.namespace, request.release
    secrets = kube.list_objects("v1", "secrets", ns, f"{HELM_OWNER_SELECTOR},name={name}")
    release = latest_releases(secrets).get((ns, name))
    selector = f"{INSTANCE_LABEL}={name}"
    kinds = pass_kinds(request, release)
    listed = {kind: _list_served(kube, kind, ns, selector) for kind in sorted(kinds)}
    objects = _keyed(obj for _, items in listed.values() for obj in items)
    backend_cas = kube.list_objects("v1", "configmaps", ns, f"{BACKEND_CAS},{selector}") if request.gateway_api else []
    return GatewayView(
        release=release,
        objects=objects,
        kinds=kinds,
        route_kind=route_kind(request.values),
        warnings=_warnings_if_unready(kube, ns, objects.values()),
        backend_tls_api_version=listed[BACKEND_TLS_KIND][0] if BACKEND_TLS_KIND in listed else None,
        backend_ca=next((cm for cm in backend_cas if cm["metadata"]["name"] == backend_ca_name(name)), None),
    )


@dataclass(frozen=True)
class ClusterSnapshot:
    """Every release, and every listed object of ``kinds``, of a cluster, indexed by (namespace, release)."""

    releases: dict[tuple[str, str], StoredRelease]
    objects: Mapping[tuple[str, str], LiveObjects]
    kinds: frozenset[str]
    namespaces: frozenset[str]
    warnings: Mapping[str, tuple[dict[str, Any], ...]] = field(default_factory=dict)

    # Per (namespace, release): the drift judged before for the versions listed (their objects are only metadata).
    drifts: Mapping[tuple[str, str], tuple[Drift, ...]] = field(default_factory=dict)
    rejudged: int = 0  # releases whose drift this snapshot judges anew (changed, or new to this worker process)
    # With BackendTLSPolicy among ``kinds``, by (namespace, name): the BackendCA ConfigMaps' metadata, and the
    # resourceVersions of the TLS Secrets of managed namespaces.
    backend_cas: Mapping[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    tls_secret_versions: Mapping[tuple[str, str], str] = field(default_factory=dict)

    def view(self, request: GatewayRequest) -> GatewayView:
        key = (request.namespace, request.release)
        return GatewayView(
            release=self.releases.get(key),
            objects=self.objects.get(key, {}),
            kinds=self.kinds,
            route_kind=route_kind(request.values),
            namespace_present=request.namespace in self.namespaces,
            warnings=self.warnings.get(request.namespace, ()),
            drift=self.drifts.get(key),
            backend_ca=self.backend_cas.get((request.namespace, backend_ca_name(request.release))),
            server_secret_version=self.tls_secret_versions.get((request.namespace, request.backend_tls_secret or "")),
        )


def _by_instance(items: Iterable[dict[str, Any]]) -> dict[tuple[str, str], dict[tuple[str, str], dict[str, Any]]]:
    grouped: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for obj in items:
        meta = obj.get("metadata", {})
        grouped[(meta.get("namespace", ""), (meta.get("labels") or {}).get(INSTANCE_LABEL, ""))].append(obj)
    return {key: _keyed(objs) for key, objs in grouped.items()}


def _by_name(heads: Iterable[dict[str, Any]], namespaces: frozenset[str]) -> dict[tuple[str, str], dict[str, Any]]:
    """Listed objects of the ``namespaces`` by (namespace, name)."""
    keyed = {(head["metadata"].get("namespace", ""), head["metadata"]["name"]): head for head in heads}
    return {key: head for key, head in keyed.items() if key[0] in namespaces}


def take_snapshot(kube: KubeClient, managed_selector: str, kinds: frozenset[str]) -> ClusterSnapshot:
    """A few paged, cluster-wide LISTs: Helm's records, the chart's objects of ``kinds``, managed namespaces, and
    with BackendTLSPolicy the metadata of the BackendCA ConfigMaps and of the TLS Secrets.

    What this process read before is not read again (``cluster_reads``): Helm's records and the kinds whose status
    the judge does not read are listed by metadata, and only what changed since is fetched whole."""
    releases = cluster_releases(kube)
    light = kinds - STATUS_KINDS
    whole = [obj for kind in sorted(kinds & STATUS_KINDS) for obj in _list_if_served(kube, kind, None, INSTANCE_LABEL)]
    heads = [
        obj for kind in sorted(light) for obj in _list_if_served(kube, kind, None, INSTANCE_LABEL, metadata_only=True)
    ]
    judged = judged_objects(
        releases,
        _by_instance([*whole, *heads]),
        kinds,
        light,
        fetch=lambda head: _get_if_served(kube, head),
        relist=lambda: _by_instance(
            obj for kind in sorted(light) for obj in _list_if_served(kube, kind, None, INSTANCE_LABEL)
        ),
    )
    managed = kube.list_objects("v1", "namespaces", None, managed_selector)
    namespaces = frozenset(ns["metadata"]["name"] for ns in managed)
    backend_cas: dict[tuple[str, str], dict[str, Any]] = {}
    tls_secret_versions: dict[tuple[str, str], str] = {}
    if BACKEND_TLS_KIND in kinds:
        backend_cas = _by_name(kube.list_metadata("v1", "configmaps", None, BACKEND_CAS), namespaces)
        secrets = _by_name(kube.list_metadata("v1", "secrets", None, field_selector=TLS_SECRETS), namespaces)
        tls_secret_versions = {key: str(head["metadata"].get("resourceVersion", "")) for key, head in secrets.items()}
    warnings: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for event in _warnings_if_unready(kube, None, whole):
        warnings[(event.get("metadata") or {}).get("namespace", "")].append(event)
    return ClusterSnapshot(
        releases=releases,
        objects=judged.objects,
        kinds=kinds,
        namespaces=namespaces,
        warnings={namespace: tuple(events) for namespace, events in warnings.items()},
        drifts=judged.verdicts,
        rejudged=judged.rejudged,
        backend_cas=backend_cas,
        tls_secret_versions=tls_secret_versions,
    )
