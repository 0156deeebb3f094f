"""A background controller that simulates what kubelets and controllers would report in status.

Deployments, StatefulSets and Jobs become ready/complete `ready_delay` seconds after the controller
first sees their current generation; routes, gateways and certificates are accepted at once;
terminating namespaces are emptied and removed.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import json
import threading
import time
from collections.abc import Callable
from typing import Any

from devcluster.cluster import MERGE_PATCH, NAMESPACE_KEY, Cluster
from devcluster.errors import ApiError
from devcluster.meta import now

_HASH_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"
StatusBuilder = Callable[[dict[str, Any], bool], dict[str, Any]]


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


def _replicas(obj: dict[str, Any]) -> int:
    replicas = (obj.get("spec") or {}).get("replicas")
    return 1 if replicas is None else int(replicas)


def _generation(obj: dict[str, Any]) -> int:
    return int(obj["metadata"].get("generation", 1))


def deployment_status(obj: dict[str, Any], ready: bool) -> dict[str, Any]:
    replicas = _replicas(obj)
    status: dict[str, Any] = {"observedGeneration": _generation(obj), "replicas": replicas, "updatedReplicas": replicas}
    if ready:
        status.update(readyReplicas=replicas, availableReplicas=replicas)
        status["conditions"] = [
            _condition("Available", True, "MinimumReplicasAvailable", "Deployment has minimum availability."),
            _condition("Progressing", True, "NewReplicaSetAvailable", "ReplicaSet has successfully progressed."),
        ]
    else:
        status["unavailableReplicas"] = replicas
        status["conditions"] = [
            _condition(
                "Available", False, "MinimumReplicasUnavailable", "Deployment does not have minimum availability."
            ),
            _condition("Progressing", True, "ReplicaSetUpdated", "ReplicaSet is progressing."),
        ]
    return status


def statefulset_status(obj: dict[str, Any], ready: bool) -> dict[str, Any]:
    replicas = _replicas(obj)
    revision = f"{obj['metadata']['name']}-{_generation(obj)}"
    status: dict[str, Any] = {
        "observedGeneration": _generation(obj),
        "replicas": replicas,
        "currentRevision": revision,
        "updateRevision": revision,
        "collisionCount": 0,
    }
    if ready:
        status.update(
            readyReplicas=replicas, currentReplicas=replicas, updatedReplicas=replicas, availableReplicas=replicas
        )
    return status


def replicaset_status(obj: dict[str, Any], ready: bool) -> dict[str, Any]:
    replicas = _replicas(obj)
    status: dict[str, Any] = {"observedGeneration": _generation(obj), "replicas": replicas}
    if ready:
        status.update(readyReplicas=replicas, availableReplicas=replicas, fullyLabeledReplicas=replicas)
    return status


def daemonset_status(obj: dict[str, Any], ready: bool) -> dict[str, Any]:
    count = 1 if ready else 0
    return {
        "observedGeneration": _generation(obj),
        "desiredNumberScheduled": 1,
        "currentNumberScheduled": 1,
        "updatedNumberScheduled": 1,
        "numberReady": count,
        "numberAvailable": count,
        "numberMisscheduled": 0,
    }


def job_status(obj: dict[str, Any], ready: bool) -> dict[str, Any]:
    started = (obj.get("status") or {}).get("startTime") or now()
    if not ready:
        return {"startTime": started, "active": 1, "ready": 0, "terminating": 0}
    completions = int((obj.get("spec") or {}).get("completions") or 1)
    return {
        "startTime": started,
        "completionTime": now(),
        "succeeded": completions,
        "ready": 0,
        "terminating": 0,
        "uncountedTerminatedPods": {},
        "conditions": [
            _condition("SuccessCriteriaMet", True, "CompletionsReached", "Reached expected number of succeeded pods"),
            _condition("Complete", True, "CompletionsReached", "Reached expected number of succeeded pods"),
        ],
    }


def route_status(obj: dict[str, Any], ready: bool) -> dict[str, Any]:
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


def gateway_route_status(obj: dict[str, Any], ready: bool) -> dict[str, Any]:
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


def gateway_status(obj: dict[str, Any], ready: bool) -> dict[str, Any]:
    conditions = []
    for type_ in ("Accepted", "Programmed"):
        condition = _condition(type_, True, type_)
        condition.pop("lastUpdateTime")
        condition["observedGeneration"] = _generation(obj)
        conditions.append(condition)
    return {"conditions": conditions, "addresses": [{"type": "IPAddress", "value": "10.96.255.1"}]}


def ready_condition_status(obj: dict[str, Any], ready: bool) -> dict[str, Any]:
    condition = _condition("Ready", True, "Ready", f"{obj['kind']} is ready")
    condition.pop("lastUpdateTime")
    condition["observedGeneration"] = _generation(obj)
    return {"conditions": [condition]}


def certificate_status(obj: dict[str, Any], ready: bool) -> dict[str, Any]:
    status = ready_condition_status(obj, ready)
    status.update(notBefore=now(), notAfter="2099-01-01T00:00:00Z", revision=1)
    return status


def bound_status(obj: dict[str, Any], ready: bool) -> dict[str, Any]:
    return {"phase": "Bound"}


# (group, kind) -> (status builder, whether readiness waits for the configured delay)
STATUS_RULES: dict[tuple[str, str], tuple[StatusBuilder, bool]] = {
    ("apps", "Deployment"): (deployment_status, True),
    ("apps", "StatefulSet"): (statefulset_status, True),
    ("apps", "ReplicaSet"): (replicaset_status, True),
    ("apps", "DaemonSet"): (daemonset_status, True),
    ("batch", "Job"): (job_status, True),
    ("", "PersistentVolumeClaim"): (bound_status, False),
    ("route.openshift.io", "Route"): (route_status, False),
    ("gateway.networking.k8s.io", "HTTPRoute"): (gateway_route_status, False),
    ("gateway.networking.k8s.io", "GRPCRoute"): (gateway_route_status, False),
    ("gateway.networking.k8s.io", "Gateway"): (gateway_status, False),
    ("cert-manager.io", "Certificate"): (certificate_status, False),
    ("cert-manager.io", "Issuer"): (ready_condition_status, False),
    ("cert-manager.io", "ClusterIssuer"): (ready_condition_status, False),
}


def _settled(current: dict[str, Any] | None, desired: dict[str, Any]) -> bool:
    """Whether the current status already says what `desired` says, ignoring timestamps."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {
                k: strip(v) for k, v in value.items() if not k.endswith("Time") and k not in ("notBefore", "notAfter")
            }
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return strip(current or {}) == strip(desired)


class StatusController:
    """Polls the store on a background thread and writes simulated status."""

    def __init__(self, cluster: Cluster, ready_delay: float, interval: float = 0.05) -> None:
        self._cluster = cluster
        self._ready_delay = ready_delay
        self._interval = interval
        self._first_seen: dict[tuple[str, int], float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="devcluster-status", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.reconcile()
            self._stop.wait(self._interval)

    def reconcile(self) -> None:
        store = self._cluster.store
        self._sync_replica_sets()
        for namespace in store.list(NAMESPACE_KEY):
            if namespace["metadata"].get("deletionTimestamp"):
                self._cluster.remove_namespace_contents(namespace["metadata"]["name"])
        for rt in {rt.storage_key: rt for rt in self._cluster.registry.all()}.values():
            rule = STATUS_RULES.get((rt.group, rt.kind))
            if rule is None:
                continue
            builder, delayed = rule
            for obj in store.list(rt.storage_key):
                if obj["metadata"].get("deletionTimestamp"):
                    continue
                ready = not delayed or self._delay_passed(obj)
                if not _settled(obj.get("status"), builder(obj, ready)):
                    namespace, name = obj["metadata"].get("namespace", ""), obj["metadata"]["name"]
                    self._cluster.update_status(rt, namespace, name, lambda o, b=builder, r=ready: _set_status(o, b, r))

    def _sync_replica_sets(self) -> None:
        """Give every Deployment a controlled ReplicaSet for its current pod template (older ones scale to 0)."""
        registry = self._cluster.registry
        deployments, replica_sets = (
            registry.lookup("apps", "v1", "deployments"),
            registry.lookup("apps", "v1", "replicasets"),
        )
        if deployments is None or replica_sets is None:
            return
        for deployment in self._cluster.store.list(deployments.storage_key):
            if deployment["metadata"].get("deletionTimestamp"):
                continue
            namespace = deployment["metadata"]["namespace"]
            wanted = replica_set_for(deployment)
            owned = [
                rs
                for rs in self._cluster.store.list(replica_sets.storage_key, namespace)
                if _controller_uid(rs) == deployment["metadata"]["uid"]
            ]
            for rs in owned:
                replicas = wanted["spec"]["replicas"] if rs["metadata"]["name"] == wanted["metadata"]["name"] else 0
                if rs["spec"].get("replicas") != replicas:
                    self._cluster.patch(
                        replica_sets, namespace, rs["metadata"]["name"], MERGE_PATCH, {"spec": {"replicas": replicas}}
                    )
            if all(rs["metadata"]["name"] != wanted["metadata"]["name"] for rs in owned):
                # An ApiError means the namespace is going away or the name is taken; retried next tick.
                with contextlib.suppress(ApiError):
                    self._cluster.create(replica_sets, namespace, wanted)

    def _delay_passed(self, obj: dict[str, Any]) -> bool:
        key = (obj["metadata"]["uid"], _generation(obj))
        first_seen = self._first_seen.setdefault(key, time.monotonic())
        return time.monotonic() - first_seen >= self._ready_delay


def _controller_uid(obj: dict[str, Any]) -> str | None:
    for ref in obj["metadata"].get("ownerReferences") or []:
        if ref.get("controller"):
            return ref.get("uid")
    return None


def replica_set_for(deployment: dict[str, Any]) -> dict[str, Any]:
    """The ReplicaSet a deployment controller would create for the deployment's current pod template."""
    template = copy.deepcopy((deployment.get("spec") or {}).get("template") or {})
    digest = hashlib.sha256(json.dumps(template, sort_keys=True).encode()).digest()
    pod_template_hash = "".join(_HASH_ALPHABET[b % len(_HASH_ALPHABET)] for b in digest[:10])
    template.setdefault("metadata", {}).setdefault("labels", {})["pod-template-hash"] = pod_template_hash
    selector = copy.deepcopy((deployment.get("spec") or {}).get("selector") or {})
    selector.setdefault("matchLabels", {})["pod-template-hash"] = pod_template_hash
    meta = deployment["metadata"]
    return {
        "apiVersion": "apps/v1",
        "kind": "ReplicaSet",
        "metadata": {
            "name": f"{meta['name']}-{pod_template_hash}",
            "namespace": meta["namespace"],
            "labels": template["metadata"]["labels"],
            "ownerReferences": [
                {
                    "apiVersion": "apps/v1",
                    "kind": "Deployment",
                    "name": meta["name"],
                    "uid": meta["uid"],
                    "controller": True,
                    "blockOwnerDeletion": True,
                }
            ],
        },
        "spec": {"replicas": _replicas(deployment), "selector": selector, "template": template},
    }


def _set_status(obj: dict[str, Any], builder: StatusBuilder, ready: bool) -> bool:
    desired = builder(obj, ready)
    if _settled(obj.get("status"), desired) or obj["metadata"].get("deletionTimestamp"):
        return False
    obj["status"] = desired
    return True
