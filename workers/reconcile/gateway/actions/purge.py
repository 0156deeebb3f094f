"""Remove what a release left, without Helm: the cluster-scoped objects labelled for it, the control plane's own
objects, and the namespace (with Helm's records of the release in it). For a delete that Helm cannot finish: after
the bounded failed uninstalls, or on a platform admin's force delete. Each step is an event."""

from __future__ import annotations

from cluster_vocabulary.kubernetes import NamespacePhase
from gateways.states import Reason
from workers.drivers.errors import DriverError
from workers.reconcile.gateway.actions import Interrupted
from workers.reconcile.gateway.backend_tls.reconcile import remove_backend_tls
from workers.reconcile.gateway.observation.drift import INSTANCE_LABEL
from workers.reconcile.gateway.observation.view import GatewayView
from workers.reconcile.gateway.outcome import GatewayOutcome
from workers.reconcile.gateway.pass_io import PassIo
from workers.reconcile.gateway.prerequisites import remove_prerequisites
from workers.reconcile.gateway.request import GatewayRequest

__all__ = ["CLUSTER_SCOPED", "release_selector", "run"]

MANAGED_BY_LABEL, HELM = "app.kubernetes.io/managed-by", "Helm"
# The cluster-scoped kinds a gateway chart renders per release (api version, plural).
CLUSTER_SCOPED = (
    ("rbac.authorization.k8s.io/v1", "clusterroles"),
    ("rbac.authorization.k8s.io/v1", "clusterrolebindings"),
)


def release_selector(release: str) -> str:
    """The label selector of the objects Helm made for ``release``."""
    return f"{INSTANCE_LABEL}={release},{MANAGED_BY_LABEL}={HELM}"


def run(request: GatewayRequest, io: PassIo, view: GatewayView | None) -> GatewayOutcome:
    """Each step is an event; a step that fails after others did raises ``Interrupted`` with their events."""
    outcome = GatewayOutcome()
    try:
        _remove(request, io, outcome)
    except DriverError as exc:
        if outcome.events:
            raise Interrupted(outcome, exc) from exc
        raise
    return outcome


def _remove(request: GatewayRequest, io: PassIo, outcome: GatewayOutcome) -> None:
    removed = []
    for api_version, plural in CLUSTER_SCOPED:
        for item in io.kube.list_objects(api_version, plural, label_selector=release_selector(request.release)):
            io.kube.delete_object(api_version, plural, None, item["metadata"]["name"])
            removed.append(f"{item['kind']} {item['metadata']['name']}")
    if removed:
        outcome.event(Reason.CLUSTER_OBJECTS_DELETED, f"Deleted {', '.join(removed)} (labelled for {request.release})")
    namespace = io.kube.get_namespace(request.namespace)
    if namespace is None or (namespace.get("status") or {}).get("phase") == NamespacePhase.TERMINATING:
        return
    remove_backend_tls(request, io)
    remove_prerequisites(request, io)
    outcome.event(Reason.OWN_OBJECTS_DELETED, f"Deleted the control plane's objects in {request.namespace}")
    io.kube.delete_namespace(request.namespace)
    outcome.event(Reason.NAMESPACE_DELETED, f"Deleting namespace {request.namespace}")
