"""Workload controllers: Deployments own ReplicaSets; ReplicaSets, StatefulSets, Jobs and DaemonSets own Pods.

Pods are created through admission with each controller's own identity; a refused create becomes a
`FailedCreate` Warning Event on the owner and is retried with a backoff. Every status here is derived from
the owned objects, as kube-controller-manager derives it.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from devcluster.admission import controller
from devcluster.backoff import Backoff
from devcluster.cluster import MERGE_PATCH, Cluster
from devcluster.errors import ApiError
from devcluster.events import NORMAL, WARNING, EventRecorder
from devcluster.meta import now
from devcluster.resources import ResourceType

__all__ = ["Workloads", "is_ready", "replica_set_for"]

_HASH_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"
RECREATE_POLL_SECONDS = 0.2  # a Recreate rollout looks again while the old pods terminate
Owned = Callable[[str], list[dict[str, Any]]]  # controller uid -> the objects it controls (read-only)
Status = dict[str, Any]


def template_hash(template: dict[str, Any]) -> str:
    digest = hashlib.sha256(json.dumps(template, sort_keys=True).encode()).digest()
    return "".join(_HASH_ALPHABET[b % len(_HASH_ALPHABET)] for b in digest[:10])


def owner_reference(owner: dict[str, Any]) -> dict[str, Any]:
    return {
        "apiVersion": owner["apiVersion"],
        "kind": owner["kind"],
        "name": owner["metadata"]["name"],
        "uid": owner["metadata"]["uid"],
        "controller": True,
        "blockOwnerDeletion": True,
    }


def replicas_of(obj: dict[str, Any]) -> int:
    replicas = (obj.get("spec") or {}).get("replicas")
    return 1 if replicas is None else int(replicas)


def generation_of(obj: dict[str, Any]) -> int:
    return int(obj["metadata"].get("generation", 1))


def is_active(pod: dict[str, Any]) -> bool:
    return not pod["metadata"].get("deletionTimestamp") and (pod.get("status") or {}).get("phase") not in (
        "Succeeded",
        "Failed",
    )


def is_ready(pod: dict[str, Any]) -> bool:
    conditions = (pod.get("status") or {}).get("conditions") or []
    return is_active(pod) and any(c.get("type") == "Ready" and c.get("status") == "True" for c in conditions)


def condition(
    old: list[dict[str, Any]], type_: str, status: bool, reason: str, message: str, update_time: bool = True
) -> dict[str, Any]:
    """A workload condition; its times are kept while nothing about it changes."""
    previous = next((c for c in old if c.get("type") == type_), {})
    value = "True" if status else "False"
    same = previous.get("status") == value
    unchanged = same and (previous.get("reason"), previous.get("message")) == (reason, message)
    stamp = now()
    result = {"type": type_, "status": value, "reason": reason, "message": message}
    if update_time:
        result["lastUpdateTime"] = previous.get("lastUpdateTime", stamp) if unchanged else stamp
    result["lastTransitionTime"] = previous.get("lastTransitionTime", stamp) if same else stamp
    return result


def _nonzero(**counts: int) -> dict[str, int]:
    """Counts as the API serializes them (`omitempty`)."""
    return {key: value for key, value in counts.items() if value}


def _pod_from_template(owner: dict[str, Any], labels: dict[str, str]) -> dict[str, Any]:
    template = copy.deepcopy((owner.get("spec") or {}).get("template") or {})
    metadata = template.get("metadata") or {}
    metadata["labels"] = {**(metadata.get("labels") or {}), **labels}
    metadata["ownerReferences"] = [owner_reference(owner)]
    return {"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": template.get("spec") or {}}


def replica_set_for(deployment: dict[str, Any]) -> dict[str, Any]:
    """The ReplicaSet a deployment controller would create for the deployment's current pod template."""
    template = copy.deepcopy((deployment.get("spec") or {}).get("template") or {})
    pod_template_hash = template_hash(template)
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
            "ownerReferences": [owner_reference(deployment)],
        },
        "spec": {"replicas": replicas_of(deployment), "selector": selector, "template": template},
    }


def _max_unavailable(deployment: dict[str, Any], replicas: int) -> int:
    strategy = (deployment.get("spec") or {}).get("strategy") or {}
    if strategy.get("type") == "Recreate":
        return 0
    value = (strategy.get("rollingUpdate") or {}).get("maxUnavailable", "25%")
    if isinstance(value, str) and value.endswith("%"):
        return int(value[:-1]) * replicas // 100
    return int(value)


def _max_surge(deployment: dict[str, Any], replicas: int) -> int:
    """maxSurge, a percentage rounded up (maxUnavailable rounds down)."""
    rolling = ((deployment.get("spec") or {}).get("strategy") or {}).get("rollingUpdate") or {}
    value = rolling.get("maxSurge", "25%")
    if isinstance(value, str) and value.endswith("%"):
        return -(-int(value[:-1]) * replicas // 100)
    return int(value)


@dataclass(frozen=True)
class Replicas:
    """A ReplicaSet's wanted replicas and how many of its pods are available (never more than it wants)."""

    wanted: int
    available: int


def rolling_update(
    desired: int, surge: int, unavailable: int, new: Replicas, old: list[Replicas]
) -> tuple[int, list[int]]:
    """The replicas of the new and the old ReplicaSets (oldest first) after one step of a rolling update, as
    kube-controller-manager's rolling.go: scale the new one up within `desired + surge` pods, and the old ones down
    (their unavailable pods first) while at least `desired - unavailable` pods stay available."""
    if surge == 0 and unavailable == 0:
        unavailable = 1
    total = new.wanted + sum(rs.wanted for rs in old)
    new_wanted = min(desired, new.wanted + max(0, desired + surge - total)) if new.wanted < desired else desired
    minimum = desired - unavailable
    budget = total - minimum - (new.wanted - new.available)
    old_wanted = [rs.wanted for rs in old]
    for i, rs in enumerate(old):
        down = min(max(budget, 0), rs.wanted - rs.available)
        old_wanted[i] -= down
        budget -= down
    budget = new.available + sum(min(rs.available, old_wanted[i]) for i, rs in enumerate(old)) - minimum
    for i, rs in enumerate(old):
        down = min(max(budget, 0), min(rs.available, old_wanted[i]))
        old_wanted[i] -= down
        budget -= down
    return new_wanted, old_wanted


def _elapsed_since(stamp: str) -> float:
    return (datetime.now(UTC) - datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)).total_seconds()


class Workloads:
    """One sync per workload object; each returns the seconds until it wants another look, if any."""

    def __init__(self, cluster: Cluster, recorder: EventRecorder, owned: Owned) -> None:
        self._cluster = cluster
        self._recorder = recorder
        self._owned = owned
        self._backoff = Backoff()
        self._errors: dict[str, str] = {}

    def forget(self, uid: str) -> None:
        """Drop what is remembered about a deleted workload."""
        self._backoff.succeeded(uid)
        self._errors.pop(uid, None)

    def _rt(self, group: str, plural: str) -> ResourceType:
        version = {"": "v1", "apps": "v1", "batch": "v1"}[group]
        rt = self._cluster.registry.lookup(group, version, plural)
        assert rt is not None
        return rt

    # -- creating and deleting pods ----------------------------------------------------------------------

    def _create(
        self,
        owner: dict[str, Any],
        rt: ResourceType,
        body: dict[str, Any],
        component: str,
        failure: Callable[[str, str], str],
        success: Callable[[str], str],
        clock: float,
        success_reason: str = "SuccessfulCreate",
    ) -> float | None:
        """Create one object for `owner`; on refusal record FailedCreate and return the backoff to wait."""
        uid = owner["metadata"]["uid"]
        name = body["metadata"].get("name") or body["metadata"].get("generateName", "")
        try:
            created = self._cluster.create(rt, owner["metadata"]["namespace"], body, requester=controller(component))
        except ApiError as exc:
            if exc.reason == "AlreadyExists":
                return None
            self._errors[uid] = exc.message
            self._recorder.record(owner, WARNING, "FailedCreate", failure(name, exc.message), component)
            return self._backoff.failed(uid, clock)
        self._backoff.succeeded(uid)
        self._errors.pop(uid, None)
        self._recorder.record(owner, NORMAL, success_reason, success(created["metadata"]["name"]), component)
        return None

    def _create_generated_pod(
        self, owner: dict[str, Any], labels: dict[str, str], component: str, clock: float
    ) -> float | None:
        """A pod `<owner>-<5 chars>` from the owner's template (ReplicaSet, DaemonSet, Job); see `_create`."""
        pod = _pod_from_template(owner, labels)
        pod["metadata"].pop("name", None)
        pod["metadata"]["generateName"] = f"{owner['metadata']['name']}-"
        return self._create(
            owner,
            self._rt("", "pods"),
            pod,
            component,
            lambda name, error: f"Error creating: {error}",
            lambda name: f"Created pod: {name}",
            clock,
        )

    def _delete_pod(self, owner: dict[str, Any], pod: dict[str, Any], component: str, message: str) -> None:
        with contextlib.suppress(ApiError):
            self._cluster.delete(self._rt("", "pods"), pod["metadata"]["namespace"], pod["metadata"]["name"])
            self._recorder.record(
                owner, NORMAL, "SuccessfulDelete", message.format(pod=pod["metadata"]["name"]), component
            )

    def _write_status(self, rt: ResourceType, obj: dict[str, Any], status: Status) -> None:
        if _settled(obj.get("status"), status):
            return
        meta, uid = obj["metadata"], obj["metadata"]["uid"]

        def mutate(current: dict[str, Any]) -> bool:
            if current["metadata"]["uid"] != uid or current["metadata"].get("deletionTimestamp"):
                return False
            current["status"] = status
            return True

        self._cluster.update_status(rt, meta["namespace"], meta["name"], mutate)

    # -- Deployment ----------------------------------------------------------------------------------------

    def sync_deployment(self, deployment: dict[str, Any], clock: float) -> float | None:
        """Keep a ReplicaSet for the current template and roll onto it within maxSurge and maxUnavailable
        (`rolling_update`). With `Recreate` the old ones go to 0 at once and the new one scales up only once none
        of their pods is left (terminating ones included), as upstream: two generations never run together."""
        rs_rt = self._rt("apps", "replicasets")
        meta, desired = deployment["metadata"], replicas_of(deployment)
        wanted = replica_set_for(deployment)
        owned = self._owned(meta["uid"])
        new = next((rs for rs in owned if rs["metadata"]["name"] == wanted["metadata"]["name"]), None)
        old = [rs for rs in owned if rs is not new]
        recreate = ((deployment.get("spec") or {}).get("strategy") or {}).get("type") == "Recreate"
        old_pods_left = recreate and any(self._owned(rs["metadata"]["uid"]) for rs in old)
        old.sort(key=lambda rs: (rs["metadata"].get("creationTimestamp", ""), rs["metadata"]["name"]))
        if recreate:
            target, old_targets = (0 if old_pods_left else desired), [0] * len(old)
        else:
            target, old_targets = rolling_update(
                desired,
                _max_surge(deployment, desired),
                _max_unavailable(deployment, desired),
                _replicas(new) if new is not None else Replicas(0, 0),
                [_replicas(rs) for rs in old],
            )
        if new is None:
            wanted["spec"]["replicas"] = target
            self._create(
                deployment,
                rs_rt,
                wanted,
                "deployment-controller",
                lambda name, error: f"Failed to create new replica set {name!r}: {error}",
                lambda name: f"Scaled up replica set {name} from 0 to {target}",
                clock,
                "ScalingReplicaSet",
            )
            new_status: Status = {}
        else:
            self._scale(deployment, new, target)
            new_status = new.get("status") or {}
        new_ready = new is not None and new_status.get("availableReplicas", 0) >= desired
        for rs, replicas in zip(old, old_targets, strict=True):
            self._scale(deployment, rs, replicas)
        statuses = [rs.get("status") or {} for rs in owned]
        spec_total = sum(replicas_of(rs) for rs in owned) or desired
        available = sum(s.get("availableReplicas", 0) for s in statuses)
        conditions = (deployment.get("status") or {}).get("conditions") or []
        name = wanted["metadata"]["name"]
        minimum = desired - _max_unavailable(deployment, desired)
        progressed = new_ready and all(not (rs.get("status") or {}).get("replicas") for rs in old)
        result = [
            condition(conditions, "Available", True, "MinimumReplicasAvailable", "Deployment has minimum availability.")
            if available >= minimum
            else condition(
                conditions,
                "Available",
                False,
                "MinimumReplicasUnavailable",
                "Deployment does not have minimum availability.",
            ),
            condition(
                conditions,
                "Progressing",
                True,
                "NewReplicaSetAvailable",
                f'ReplicaSet "{name}" has successfully progressed.',
            )
            if progressed
            else condition(
                conditions, "Progressing", True, "ReplicaSetUpdated", f'ReplicaSet "{name}" is progressing.'
            ),
        ]
        failure = next((c for c in new_status.get("conditions") or [] if c.get("type") == "ReplicaFailure"), None)
        if failure is not None:
            result.append(condition(conditions, "ReplicaFailure", True, failure["reason"], failure["message"]))
        status = {
            "observedGeneration": generation_of(deployment),
            **_nonzero(
                replicas=sum(s.get("replicas", 0) for s in statuses),
                updatedReplicas=new_status.get("replicas", 0),
                readyReplicas=sum(s.get("readyReplicas", 0) for s in statuses),
                availableReplicas=available,
                unavailableReplicas=max(spec_total - available, 0),
            ),
            "conditions": result,
        }
        self._write_status(self._rt("apps", "deployments"), deployment, status)
        return RECREATE_POLL_SECONDS if old_pods_left else None

    def _scale(self, deployment: dict[str, Any], rs: dict[str, Any], replicas: int) -> None:
        current = replicas_of(rs)
        if current == replicas:
            return
        rs_meta = rs["metadata"]
        with contextlib.suppress(ApiError):
            self._cluster.patch(
                self._rt("apps", "replicasets"),
                rs_meta["namespace"],
                rs_meta["name"],
                MERGE_PATCH,
                {"spec": {"replicas": replicas}},
            )
            verb = "up" if replicas > current else "down"
            message = f"Scaled {verb} replica set {rs_meta['name']} from {current} to {replicas}"
            self._recorder.record(deployment, NORMAL, "ScalingReplicaSet", message, "deployment-controller")

    # -- ReplicaSet ----------------------------------------------------------------------------------------

    def sync_replicaset(self, rs: dict[str, Any], clock: float) -> float | None:
        meta, desired = rs["metadata"], replicas_of(rs)
        component = "replicaset-controller"
        pods = [p for p in self._owned(meta["uid"]) if is_active(p)]
        wait = None
        if len(pods) < desired:
            wait = self._backoff.remaining(meta["uid"], clock) or None
            for _ in range(desired - len(pods) if wait is None else 0):
                wait = self._create_generated_pod(rs, {}, component, clock)
                if wait is not None:
                    break
        elif len(pods) > desired:
            # As upstream: unready pods go first, then the newest.
            doomed = sorted(pods, key=lambda p: (is_ready(p), p["metadata"].get("creationTimestamp", "")))
            for pod in sorted(doomed[: len(pods) - desired], key=lambda p: p["metadata"]["name"]):
                self._delete_pod(rs, pod, component, "Deleted pod: {pod}")
        ready = sum(1 for p in pods if is_ready(p))
        status: Status = {
            "observedGeneration": generation_of(rs),
            "replicas": len(pods),
            **_nonzero(fullyLabeledReplicas=len(pods), readyReplicas=ready, availableReplicas=ready),
        }
        error = self._errors.get(meta["uid"])
        if error is not None and len(pods) < desired:
            old = (rs.get("status") or {}).get("conditions") or []
            status["conditions"] = [condition(old, "ReplicaFailure", True, "FailedCreate", error, update_time=False)]
        self._write_status(self._rt("apps", "replicasets"), rs, status)
        return wait

    # -- StatefulSet ---------------------------------------------------------------------------------------

    def sync_statefulset(self, sts: dict[str, Any], clock: float) -> float | None:
        """Ordinal pods, claims first; OrderedReady waits for each pod; updates go highest ordinal first."""
        meta, spec = sts["metadata"], sts.get("spec") or {}
        name, desired = meta["name"], replicas_of(sts)
        component = "statefulset-controller"
        revision = f"{name}-{template_hash(spec.get('template') or {})}"
        parallel = spec.get("podManagementPolicy") == "Parallel"
        pods: dict[int, dict[str, Any]] = {}
        for pod in self._owned(meta["uid"]):
            ordinal = pod["metadata"]["name"].removeprefix(f"{name}-")
            if is_active(pod) and ordinal.isdigit():
                pods[int(ordinal)] = pod
        wait = None
        for ordinal in range(desired):
            pod = pods.get(ordinal)
            if pod is None:
                wait = self._backoff.remaining(meta["uid"], clock) or self._create_ordinal(
                    sts, ordinal, revision, clock
                )
                if wait is not None or not parallel:
                    break
            elif not parallel and not is_ready(pod):
                break
        condemned = sorted((o for o in pods if o >= desired), reverse=True)
        for ordinal in condemned if parallel else condemned[:1]:
            self._delete_pod(sts, pods[ordinal], component, "delete Pod {pod} in StatefulSet " + f"{name} successful")
        strategy = spec.get("updateStrategy") or {}
        settled = all(o in pods and is_ready(pods[o]) for o in range(desired)) and not condemned
        if settled and strategy.get("type", "RollingUpdate") == "RollingUpdate":
            partition = int((strategy.get("rollingUpdate") or {}).get("partition") or 0)
            stale = [o for o in range(desired) if o >= partition and _revision(pods[o]) != revision]
            if stale:
                self._delete_pod(
                    sts, pods[max(stale)], component, "delete Pod {pod} in StatefulSet " + f"{name} successful"
                )
        active = list(pods.values())
        updated = sum(1 for p in active if _revision(p) == revision)
        current = (sts.get("status") or {}).get("currentRevision") or revision
        if updated == desired == len(active):
            current = revision
        ready = sum(1 for p in active if is_ready(p))
        status: Status = {
            "observedGeneration": generation_of(sts),
            "replicas": len(active),
            **_nonzero(
                readyReplicas=ready,
                currentReplicas=sum(1 for p in active if _revision(p) == current),
                updatedReplicas=updated,
            ),
            "availableReplicas": ready,
            "currentRevision": current,
            "updateRevision": revision,
            "collisionCount": 0,
        }
        self._write_status(self._rt("apps", "statefulsets"), sts, status)
        return wait

    def _create_ordinal(self, sts: dict[str, Any], ordinal: int, revision: str, clock: float) -> float | None:
        meta, spec = sts["metadata"], sts.get("spec") or {}
        component = "statefulset-controller"
        pod_name = f"{meta['name']}-{ordinal}"
        claims = {}
        for template in spec.get("volumeClaimTemplates") or []:
            volume = (template.get("metadata") or {}).get("name", "")
            claim_name = claims[volume] = f"{volume}-{pod_name}"
            if self._cluster.store.peek(("", "persistentvolumeclaims"), meta["namespace"], claim_name) is not None:
                continue
            wait = self._create(
                sts,
                self._rt("", "persistentvolumeclaims"),
                _claim(sts, template, claim_name),
                component,
                lambda name, error: (
                    f"create Claim {name} for Pod {pod_name} in StatefulSet {meta['name']} failed error: {error}"
                ),
                lambda name: f"create Claim {name} Pod {pod_name} in StatefulSet {meta['name']} success",
                clock,
            )
            if wait is not None:
                return wait
        labels = {
            "controller-revision-hash": revision,
            "statefulset.kubernetes.io/pod-name": pod_name,
            "apps.kubernetes.io/pod-index": str(ordinal),
        }
        pod = _pod_from_template(sts, labels)
        pod["metadata"]["name"] = pod_name
        pod["metadata"].pop("generateName", None)
        pod_spec = pod["spec"]
        pod_spec["hostname"] = pod_name
        if spec.get("serviceName"):
            pod_spec["subdomain"] = spec["serviceName"]
        volumes = [v for v in pod_spec.get("volumes") or [] if v.get("name") not in claims]
        pod_spec["volumes"] = volumes + [
            {"name": volume, "persistentVolumeClaim": {"claimName": claim}} for volume, claim in claims.items()
        ]
        return self._create(
            sts,
            self._rt("", "pods"),
            pod,
            component,
            lambda name, error: f"create Pod {name} in StatefulSet {meta['name']} failed error: {error}",
            lambda name: f"create Pod {name} in StatefulSet {meta['name']} successful",
            clock,
        )

    # -- DaemonSet -----------------------------------------------------------------------------------------

    def sync_daemonset(self, ds: dict[str, Any], clock: float) -> float | None:
        """One pod for the one node; a template change replaces it."""
        meta = ds["metadata"]
        component = "daemonset-controller"
        revision = template_hash((ds.get("spec") or {}).get("template") or {})
        pods = sorted((p for p in self._owned(meta["uid"]) if is_active(p)), key=lambda p: p["metadata"]["name"])
        wait = None
        if not pods:
            wait = self._backoff.remaining(meta["uid"], clock) or None
            if wait is None:
                labels = {"controller-revision-hash": revision, "pod-template-generation": str(generation_of(ds))}
                wait = self._create_generated_pod(ds, labels, component, clock)
        for pod in pods[1:]:
            self._delete_pod(ds, pod, component, "Deleted pod: {pod}")
        strategy = ((ds.get("spec") or {}).get("updateStrategy") or {}).get("type", "RollingUpdate")
        if pods and strategy == "RollingUpdate" and _revision(pods[0]) != revision:
            self._delete_pod(ds, pods[0], component, "Deleted pod: {pod}")
        ready = sum(1 for p in pods[:1] if is_ready(p))
        status: Status = {
            "observedGeneration": generation_of(ds),
            "desiredNumberScheduled": 1,
            "currentNumberScheduled": len(pods[:1]),
            "numberMisscheduled": 0,
            "numberReady": ready,
            **_nonzero(
                updatedNumberScheduled=sum(1 for p in pods[:1] if _revision(p) == revision),
                numberAvailable=ready,
                numberUnavailable=1 - ready,
            ),
        }
        self._write_status(self._rt("apps", "daemonsets"), ds, status)
        return wait

    # -- Job -----------------------------------------------------------------------------------------------

    def sync_job(self, job: dict[str, Any], clock: float) -> float | None:
        """Run pods until `completions` succeed; fail with DeadlineExceeded past `activeDeadlineSeconds`."""
        meta, spec = job["metadata"], job.get("spec") or {}
        old = job.get("status") or {}
        conditions = old.get("conditions") or []
        if any(c.get("type") in ("Complete", "Failed") and c.get("status") == "True" for c in conditions):
            return None
        component = "job-controller"
        started = old.get("startTime") or now()
        pods = self._owned(meta["uid"])
        active = [p for p in pods if is_active(p)]
        succeeded = sum(1 for p in pods if (p.get("status") or {}).get("phase") == "Succeeded")
        failed = sum(1 for p in pods if (p.get("status") or {}).get("phase") == "Failed")
        completions = int(spec.get("completions") or 1)
        deadline = spec.get("activeDeadlineSeconds")
        left = None if deadline is None else float(deadline) - _elapsed_since(started)
        status: Status = {"startTime": started}
        wait = None
        if succeeded >= completions:
            message = "Reached expected number of succeeded pods"
            status.update(completionTime=now(), succeeded=succeeded)
            status["conditions"] = [
                condition(conditions, "SuccessCriteriaMet", True, "CompletionsReached", message, update_time=False),
                condition(conditions, "Complete", True, "CompletionsReached", message, update_time=False),
            ]
            self._recorder.record(job, NORMAL, "Completed", "Job completed", component)
        elif (left is not None and left <= 0) or failed > int(spec.get("backoffLimit", 6)):
            for pod in active:
                self._delete_pod(job, pod, component, "Deleted pod: {pod}")
            reason, message = (
                ("DeadlineExceeded", "Job was active longer than specified deadline")
                if left is not None and left <= 0
                else ("BackoffLimitExceeded", "Job has reached the specified backoff limit")
            )
            status.update(_nonzero(succeeded=succeeded, failed=failed))
            status["conditions"] = [
                condition(conditions, "FailureTarget", True, reason, message, update_time=False),
                condition(conditions, "Failed", True, reason, message, update_time=False),
            ]
            self._recorder.record(job, WARNING, reason, message, component)
            active = []
        elif not spec.get("suspend"):
            missing = min(int(spec.get("parallelism", 1)), completions - succeeded) - len(active)
            wait = self._backoff.remaining(meta["uid"], clock) or None
            for _ in range(missing if wait is None else 0):
                labels = {
                    "batch.kubernetes.io/controller-uid": meta["uid"],
                    "batch.kubernetes.io/job-name": meta["name"],
                    "controller-uid": meta["uid"],
                    "job-name": meta["name"],
                }
                wait = self._create_generated_pod(job, labels, component, clock)
                if wait is not None:
                    break
            status.update(_nonzero(active=len(active), succeeded=succeeded, failed=failed))
            if left is not None:
                wait = min(wait if wait is not None else left, left)
        status.update(ready=sum(1 for p in active if is_ready(p)), terminating=0)
        if "conditions" in status:
            status["uncountedTerminatedPods"] = {}
        self._write_status(self._rt("batch", "jobs"), job, status)
        return wait


def _replicas(rs: dict[str, Any]) -> Replicas:
    wanted = replicas_of(rs)
    return Replicas(wanted, min(wanted, int((rs.get("status") or {}).get("availableReplicas", 0))))


def _revision(pod: dict[str, Any]) -> str | None:
    return (pod["metadata"].get("labels") or {}).get("controller-revision-hash")


def _claim(sts: dict[str, Any], template: dict[str, Any], name: str) -> dict[str, Any]:
    """A claim from a volumeClaimTemplate; it outlives the StatefulSet unless the retention policy says Delete."""
    spec = sts.get("spec") or {}
    labels = {
        **((template.get("metadata") or {}).get("labels") or {}),
        **((spec.get("selector") or {}).get("matchLabels") or {}),
    }
    metadata: dict[str, Any] = {"name": name, "labels": labels}
    if (spec.get("persistentVolumeClaimRetentionPolicy") or {}).get("whenDeleted") == "Delete":
        metadata["ownerReferences"] = [owner_reference(sts)]
    return {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": metadata, "spec": template.get("spec")}


def _settled(current: dict[str, Any] | None, desired: dict[str, Any]) -> bool:
    """Whether the current status already says what `desired` says, ignoring timestamps."""
    return _strip(current or {}) == _strip(desired)


def _strip(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if not k.endswith("Time")}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value
