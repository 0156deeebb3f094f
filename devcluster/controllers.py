"""The controller loop of devcluster: what kube-controller-manager, the scheduler, the kubelet and a few
operators would write, driven by the store's change history.

Each tick reads the changes since the last one (a full scan at start, or when the history no longer reaches
back) and syncs only the objects they touch, plus those whose timers are due: a pod waiting for its ready
delay, a controller backing off after a refused create, a Job's deadline. Workloads are in
`devcluster.workloads`, pods in `devcluster.kubelet`. Routes, gateways and issuers are accepted at once;
a Certificate is Ready once its Secret exists; claims are Bound; terminating namespaces are emptied and
removed; every active namespace gets its `default` ServiceAccount.
"""

from __future__ import annotations

import contextlib
import heapq
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from devcluster.admission import controller
from devcluster.backend_tls_status import BACKEND_TLS_POLICIES, ROUTES, backend_tls_policy_status
from devcluster.cluster import NAMESPACE_KEY, Cluster
from devcluster.errors import ApiError
from devcluster.events import EventRecorder
from devcluster.kubelet import Kubelet
from devcluster.meta import now
from devcluster.resources import ResourceType
from devcluster.runtime import ProcessRuntime
from devcluster.store import StorageKey, Store
from devcluster.workloads import Workloads

__all__ = ["STATUS_RULES", "StatusController"]

Key = tuple[StorageKey, str, str]  # (storage key, namespace, name)
StatusBuilder = Callable[[dict[str, Any], Store], dict[str, Any]]  # reads the store's objects, never changes them

PODS = ("", "pods")
SECRETS = ("", "secrets")
CONFIGMAPS = ("", "configmaps")
CLAIMS = ("", "persistentvolumeclaims")
SERVICE_ACCOUNTS = ("", "serviceaccounts")
DEPLOYMENTS = ("apps", "deployments")
REPLICA_SETS = ("apps", "replicasets")
CERTIFICATES = ("cert-manager.io", "certificates")
SERVICES = ("", "services")
# Kinds whose status reads other objects of their namespace: a change to one of those syncs them again.
READS: dict[StorageKey, tuple[StorageKey, ...]] = {
    CERTIFICATES: (SECRETS,),
    BACKEND_TLS_POLICIES: (CONFIGMAPS, SERVICES, BACKEND_TLS_POLICIES, *ROUTES),
}
OWNER_KINDS: dict[str, StorageKey] = {
    "Deployment": DEPLOYMENTS,
    "ReplicaSet": REPLICA_SETS,
    "StatefulSet": ("apps", "statefulsets"),
    "DaemonSet": ("apps", "daemonsets"),
    "Job": ("batch", "jobs"),
}
_WAKES_PODS = (SECRETS, CONFIGMAPS, CLAIMS)


def _condition(type_: str, status: bool, reason: str, message: str = "") -> dict[str, Any]:
    stamp = now()
    return {
        "type": type_,
        "status": "True" if status else "False",
        "reason": reason,
        "message": message or reason,
        "lastTransitionTime": stamp,
        "lastUpdateTime": stamp,
    }


def _generation(obj: dict[str, Any]) -> int:
    return int(obj["metadata"].get("generation", 1))


def route_status(obj: dict[str, Any], store: Store) -> dict[str, Any]:
    spec = obj.get("spec") or {}
    meta = obj["metadata"]
    host = spec.get("host") or f"{meta['name']}-{meta.get('namespace', 'default')}.apps.devcluster.local"
    admitted = _condition("Admitted", True, "Admitted", "")
    admitted.pop("lastUpdateTime")
    return {
        "ingress": [
            {
                "host": host,
                "routerName": "default",
                "wildcardPolicy": "None",
                "routerCanonicalHostname": "router-default.apps.devcluster.local",
                "conditions": [admitted],
            }
        ]
    }


def gateway_route_status(obj: dict[str, Any], store: Store) -> dict[str, Any]:
    parents = []
    for ref in (obj.get("spec") or {}).get("parentRefs") or []:
        conditions = []
        for type_, reason in (("Accepted", "Accepted"), ("ResolvedRefs", "ResolvedRefs")):
            condition = _condition(type_, True, reason)
            condition.pop("lastUpdateTime")
            condition["observedGeneration"] = _generation(obj)
            conditions.append(condition)
        parents.append(
            {"parentRef": ref, "controllerName": "devcluster.local/gateway-controller", "conditions": conditions}
        )
    return {"parents": parents}


def gateway_status(obj: dict[str, Any], store: Store) -> dict[str, Any]:
    conditions = []
    for type_ in ("Accepted", "Programmed"):
        condition = _condition(type_, True, type_)
        condition.pop("lastUpdateTime")
        condition["observedGeneration"] = _generation(obj)
        conditions.append(condition)
    return {"conditions": conditions, "addresses": [{"type": "IPAddress", "value": "10.96.255.1"}]}


def ready_condition_status(obj: dict[str, Any], store: Store) -> dict[str, Any]:
    condition = _condition("Ready", True, "Ready", f"{obj['kind']} is ready")
    condition.pop("lastUpdateTime")
    condition["observedGeneration"] = _generation(obj)
    return {"conditions": [condition]}


def certificate_status(obj: dict[str, Any], store: Store) -> dict[str, Any]:
    """Ready once the Secret named by spec.secretName exists (cert-manager issues it; devcluster never does)."""
    meta, spec = obj["metadata"], obj.get("spec") or {}
    if store.peek(SECRETS, meta.get("namespace", ""), spec.get("secretName", "")) is None:
        message = "Issuing certificate as Secret does not exist"
        conditions = []
        for type_, status in (("Issuing", True), ("Ready", False)):
            condition = _condition(type_, status, "DoesNotExist", message)
            condition.pop("lastUpdateTime")
            condition["observedGeneration"] = _generation(obj)
            conditions.append(condition)
        return {"conditions": conditions}
    condition = _condition("Ready", True, "Ready", "Certificate is up to date and has not expired")
    condition.pop("lastUpdateTime")
    condition["observedGeneration"] = _generation(obj)
    return {"conditions": [condition], "notBefore": now(), "notAfter": "2099-01-01T00:00:00Z", "revision": 1}


def bound_status(obj: dict[str, Any], store: Store) -> dict[str, Any]:
    spec = obj.get("spec") or {}
    status: dict[str, Any] = {"phase": "Bound", "accessModes": spec.get("accessModes") or ["ReadWriteOnce"]}
    storage = ((spec.get("resources") or {}).get("requests") or {}).get("storage")
    if storage:
        status["capacity"] = {"storage": storage}
    return status


# (group, kind) -> status builder, for the kinds whose status needs no owned objects
STATUS_RULES: dict[tuple[str, str], StatusBuilder] = {
    ("", "PersistentVolumeClaim"): bound_status,
    ("route.openshift.io", "Route"): route_status,
    ("gateway.networking.k8s.io", "HTTPRoute"): gateway_route_status,
    ("gateway.networking.k8s.io", "GRPCRoute"): gateway_route_status,
    ("gateway.networking.k8s.io", "Gateway"): gateway_status,
    ("gateway.networking.k8s.io", "BackendTLSPolicy"): backend_tls_policy_status,
    ("cert-manager.io", "Certificate"): certificate_status,
    ("cert-manager.io", "Issuer"): ready_condition_status,
    ("cert-manager.io", "ClusterIssuer"): ready_condition_status,
}


def _settled(current: dict[str, Any] | None, desired: dict[str, Any]) -> bool:
    """Whether the current status already says what `desired` says, ignoring timestamps."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {
                k: strip(v)
                for k, v in value.items()
                if not k.endswith("Time") and k not in ("notBefore", "notAfter", "renewalTime")
            }
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return strip(current or {}) == strip(desired)


def _controller_of(obj: dict[str, Any]) -> dict[str, Any] | None:
    for ref in obj["metadata"].get("ownerReferences") or []:
        if ref.get("controller"):
            return ref
    return None


class StatusController:
    """Runs the controllers on a background thread, every `interval` seconds, over what changed."""

    def __init__(
        self, cluster: Cluster, ready_delay: float, interval: float = 0.05, runtime: ProcessRuntime | None = None
    ) -> None:
        self._cluster = cluster
        self._interval = interval
        self._runtime = runtime
        self._recorder = EventRecorder(cluster)
        self._kubelet = Kubelet(cluster, self._recorder, ready_delay, runtime)
        self._workloads = Workloads(cluster, self._recorder, self._owned)
        self._syncs: dict[StorageKey, Callable[[dict[str, Any], float], float | None]] = {
            PODS: self._kubelet.sync,
            DEPLOYMENTS: self._workloads.sync_deployment,
            REPLICA_SETS: self._workloads.sync_replicaset,
            OWNER_KINDS["StatefulSet"]: self._workloads.sync_statefulset,
            OWNER_KINDS["DaemonSet"]: self._workloads.sync_daemonset,
            OWNER_KINDS["Job"]: self._workloads.sync_job,
            NAMESPACE_KEY: self._sync_namespace,
        }
        self._seen_rv: int | None = None
        self._children: dict[str, dict[Key, dict[str, Any]]] = {}
        self._parent: dict[Key, str] = {}
        self._readers: dict[StorageKey, dict[str, set[str]]] = {key: {} for key in READS}
        self._due: dict[Key, float] = {}
        self._timers: list[tuple[float, Key]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="devcluster-status", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        if self._runtime is not None:
            self._runtime.shutdown()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.reconcile()
            self._stop.wait(self._interval)

    def reconcile(self) -> None:
        """One tick: sync what changed since the last tick and what a timer asked for."""
        clock = time.monotonic()
        dirty = self._changed()
        while self._timers and self._timers[0][0] <= clock:
            due, key = heapq.heappop(self._timers)
            if self._due.get(key) == due:
                del self._due[key]
                dirty.add(key)
        for key in sorted(dirty):
            wait = self._sync(key, clock)
            if wait is not None:
                self._wake(key, clock + wait)

    def _wake(self, key: Key, due: float) -> None:
        if key not in self._due or due < self._due[key]:
            self._due[key] = due
            heapq.heappush(self._timers, (due, key))

    # -- what changed ------------------------------------------------------------------------------------

    def _changed(self) -> set[Key]:
        store = self._cluster.store
        with store.lock:
            rv = store.resource_version
            if rv == self._seen_rv:
                return set()
            events = None
            if self._seen_rv is not None:
                with contextlib.suppress(ApiError):
                    events = [(e.type, e.key, e.obj) for e in store.events_after(self._seen_rv)]
            if events is None:
                events = [("ADDED", key, obj) for key in self._watched() for obj in store.snapshot(key).objects]
                self._children.clear()
                self._parent.clear()
                for readers in self._readers.values():
                    readers.clear()
        self._seen_rv = rv
        dirty: set[Key] = set()
        for event_type, key, obj in events:
            dirty.update(self._affected(event_type, key, obj))
        return dirty

    def _watched(self) -> list[StorageKey]:
        keys = {*self._syncs, SECRETS, CONFIGMAPS, CLAIMS, SERVICE_ACCOUNTS, SERVICES}
        keys.update(rt.storage_key for rt in self._cluster.registry.all() if (rt.group, rt.kind) in STATUS_RULES)
        return sorted(keys)

    def _affected(self, event_type: str, key: StorageKey, obj: dict[str, Any]) -> Iterable[Key]:
        """The objects to sync after one stored change; keeps the ownership index current."""
        meta = obj["metadata"]
        namespace, name = meta.get("namespace", ""), meta["name"]
        deleted = event_type == "DELETED"
        if key in (PODS, REPLICA_SETS):
            self._index((key, namespace, name), obj, deleted)
            owner = _controller_of(obj)
            if owner is not None and owner.get("kind") in OWNER_KINDS:
                yield OWNER_KINDS[owner["kind"]], namespace, owner["name"]
        if deleted:
            self._recorder.forget(meta["uid"])
            if key == PODS:
                self._kubelet.forget(obj)
                if self._runtime is not None:
                    self._runtime.discard(meta["uid"])
            elif key in self._syncs:
                self._workloads.forget(meta["uid"])
            elif key in READS:
                self._readers[key].get(namespace, set()).discard(name)
        if key in _WAKES_PODS:
            yield from ((PODS, namespace, pod) for pod in sorted(self._kubelet.waiting.get(namespace, ())))
        for reader, read in READS.items():
            if key in read:
                yield from ((reader, namespace, other) for other in sorted(self._readers[reader].get(namespace, ())))
        if key == SERVICE_ACCOUNTS:
            yield NAMESPACE_KEY, "", namespace
        elif key in READS and not deleted:
            self._readers[key].setdefault(namespace, set()).add(name)
        if not deleted and key not in (SECRETS, CONFIGMAPS, SERVICE_ACCOUNTS, SERVICES):
            yield key, namespace, name

    def _index(self, ident: Key, obj: dict[str, Any], deleted: bool) -> None:
        previous = self._parent.pop(ident, None)
        if previous is not None:
            children = self._children[previous]
            children.pop(ident, None)
            if not children:
                del self._children[previous]
        owner = None if deleted else _controller_of(obj)
        if owner is not None and owner.get("uid"):
            self._parent[ident] = owner["uid"]
            self._children.setdefault(owner["uid"], {})[ident] = obj

    def _owned(self, uid: str) -> list[dict[str, Any]]:
        """The pods or ReplicaSets whose controller is `uid` (shared, read-only)."""
        return list(self._children.get(uid, {}).values())

    # -- syncing one object --------------------------------------------------------------------------------

    def _sync(self, key: Key, clock: float) -> float | None:
        storage_key, namespace, name = key
        obj = self._cluster.store.peek(storage_key, namespace, name)
        if obj is None:
            return None
        sync = self._syncs.get(storage_key)
        if sync is not None:
            return sync(obj, clock)
        rt = next((rt for rt in self._cluster.registry.all() if rt.storage_key == storage_key), None)
        rule = STATUS_RULES.get((rt.group, rt.kind)) if rt is not None else None
        if rt is not None and rule is not None and not obj["metadata"].get("deletionTimestamp"):
            self._write_status(rt, obj, rule)
        return None

    def _write_status(self, rt: ResourceType, obj: dict[str, Any], builder: StatusBuilder) -> None:
        store = self._cluster.store
        if _settled(obj.get("status"), builder(obj, store)):
            return

        def mutate(current: dict[str, Any]) -> bool:
            desired = builder(current, store)
            if _settled(current.get("status"), desired) or current["metadata"].get("deletionTimestamp"):
                return False
            current["status"] = desired
            return True

        meta = obj["metadata"]
        self._cluster.update_status(rt, meta.get("namespace", ""), meta["name"], mutate)

    def _sync_namespace(self, namespace: dict[str, Any], clock: float) -> float | None:
        """Finalize a terminating namespace; give an active one its `default` ServiceAccount."""
        name = namespace["metadata"]["name"]
        if namespace["metadata"].get("deletionTimestamp"):
            self._cluster.remove_namespace_contents(name)
            return None
        if self._cluster.store.peek(SERVICE_ACCOUNTS, name, "default") is None:
            rt = self._cluster.registry.lookup("", "v1", "serviceaccounts")
            assert rt is not None
            body = {"metadata": {"name": "default"}}
            with contextlib.suppress(ApiError):  # the namespace began terminating meanwhile, or a race
                self._cluster.create(rt, name, body, requester=controller("service-account-controller"))
        return None
