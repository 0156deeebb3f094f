"""The scheduler and kubelet of devcluster's single node: pods are bound, wait for what they mount, then run.

No container runs. A pod is scheduled once its PersistentVolumeClaims exist, then waits until every Secret
and ConfigMap it mounts (volumes, projected sources) or reads into its environment exists with the keys it
names, as a kubelet does; `ready_delay` seconds later it is Running and Ready, or Succeeded when its
restartPolicy is not Always. A running pod keeps running when what it mounted goes away.

With a process runtime (`devcluster/runtime/`), the pods it handles run as processes instead: once startable
they are handed to it, and it writes their status from what their processes and probes do; deleting one is
graceful (the pod stays, terminating, until its processes have exited or were killed).
"""

from __future__ import annotations

import contextlib
import copy
import itertools
from collections.abc import Callable, Iterator
from typing import Any

from devcluster.cluster import Cluster
from devcluster.errors import ApiError
from devcluster.events import NODE_NAME, NORMAL, WARNING, EventRecorder
from devcluster.meta import now
from devcluster.runtime import POD_IP, ProcessRuntime, SetupError

__all__ = ["HOST_IP", "NODE_NAME", "Kubelet", "config_problem", "mount_problem", "scheduling_problem"]

HOST_IP = "172.18.0.2"
SECRETS_KEY = ("", "secrets")
CONFIGMAPS_KEY = ("", "configmaps")
CLAIMS_KEY = ("", "persistentvolumeclaims")
PODS_KEY = ("", "pods")
Lookup = Callable[[tuple[str, str], str, str], dict[str, Any] | None]


def _keys(obj: dict[str, Any]) -> set[str]:
    return {*(obj.get("data") or {}), *(obj.get("binaryData") or {})}


def scheduling_problem(lookup: Lookup, pod: dict[str, Any]) -> str | None:
    """Why the scheduler cannot place the pod (a PersistentVolumeClaim it uses is missing), or None."""
    namespace = pod["metadata"]["namespace"]
    for volume in (pod.get("spec") or {}).get("volumes") or []:
        claim = (volume.get("persistentVolumeClaim") or {}).get("claimName")
        if claim and lookup(CLAIMS_KEY, namespace, claim) is None:
            return f'0/1 nodes are available: persistentvolumeclaim "{claim}" not found.'
    return None


def _volume_sources(volume: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for kind in ("secret", "configMap"):
        if volume.get(kind) is not None:
            yield kind, volume[kind]
    for source in (volume.get("projected") or {}).get("sources") or []:
        for kind in ("secret", "configMap"):
            if source.get(kind) is not None:
                yield kind, source[kind]


def mount_problem(lookup: Lookup, pod: dict[str, Any]) -> str | None:
    """The kubelet's FailedMount message for the first Secret/ConfigMap volume it cannot set up, or None."""
    namespace = pod["metadata"]["namespace"]
    for volume in (pod.get("spec") or {}).get("volumes") or []:
        for kind, source in _volume_sources(volume):
            name = source.get("secretName" if kind == "secret" and "secretName" in source else "name", "")
            if source.get("optional"):
                continue
            obj = lookup(SECRETS_KEY if kind == "secret" else CONFIGMAPS_KEY, namespace, name)
            why = None
            if obj is None:
                why = f'{"secret" if kind == "secret" else "configmap"} "{name}" not found'
            else:
                missing = [item["key"] for item in source.get("items") or [] if item.get("key") not in _keys(obj)]
                if missing and kind == "secret":
                    why = f"references non-existent secret key: {missing[0]}"
                elif missing:
                    why = f"configmap references non-existent config key: {missing[0]}"
            if why:
                return f'MountVolume.SetUp failed for volume "{volume.get("name", "")}" : {why}'
    return None


def config_problem(lookup: Lookup, pod: dict[str, Any], container: dict[str, Any]) -> str | None:
    """Why the kubelet cannot build the container's environment (CreateContainerConfigError), or None."""
    namespace = pod["metadata"]["namespace"]

    def find(kind: str, ref: dict[str, Any], key: str | None) -> str | None:
        if ref.get("optional"):
            return None
        name = ref.get("name", "")
        obj = lookup(SECRETS_KEY if kind == "Secret" else CONFIGMAPS_KEY, namespace, name)
        if obj is None:
            return f'{kind.lower()} "{name}" not found'
        if key is not None and key not in _keys(obj):
            return f"couldn't find key {key} in {kind} {namespace}/{name}"
        return None

    for source in container.get("envFrom") or []:
        for field, kind in (("configMapRef", "ConfigMap"), ("secretRef", "Secret")):
            if source.get(field) is not None and (why := find(kind, source[field], None)):
                return why
    for env in container.get("env") or []:
        value_from = env.get("valueFrom") or {}
        for field, kind in (("configMapKeyRef", "ConfigMap"), ("secretKeyRef", "Secret")):
            ref = value_from.get(field)
            if ref is not None and (why := find(kind, ref, ref.get("key", ""))):
                return why
    return None


def _containers(pod: dict[str, Any]) -> list[dict[str, Any]]:
    spec = pod.get("spec") or {}
    return [*(spec.get("initContainers") or []), *(spec.get("containers") or [])]


def _condition(old: dict[str, Any], type_: str, status: bool, reason: str = "", message: str = "") -> dict[str, Any]:
    """A pod condition; its lastTransitionTime is kept while its status does not change."""
    previous = next((c for c in old.get("conditions") or [] if c.get("type") == type_), {})
    value = "True" if status else "False"
    condition: dict[str, Any] = {
        "type": type_,
        "status": value,
        "lastProbeTime": None,
        "lastTransitionTime": previous.get("lastTransitionTime") if previous.get("status") == value else now(),
    }
    if reason:
        condition["reason"] = reason
    if message:
        condition["message"] = message
    return condition


def _strip_times(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip_times(v) for k, v in value.items() if not k.endswith(("Time", "At"))}
    if isinstance(value, list):
        return [_strip_times(v) for v in value]
    return value


class Kubelet:
    """Syncs one pod at a time; remembers which pods wait for objects of their namespace."""

    def __init__(
        self, cluster: Cluster, recorder: EventRecorder, ready_delay: float, runtime: ProcessRuntime | None = None
    ) -> None:
        self._cluster = cluster
        self._runtime = runtime
        self._recorder = recorder
        self._ready_delay = ready_delay
        self._ips = itertools.count(2)
        self._startable_since: dict[str, float] = {}
        self._reported: dict[str, tuple[str, str]] = {}
        self.waiting: dict[str, set[str]] = {}

    def forget(self, pod: dict[str, Any]) -> None:
        """Drop what is remembered about a deleted pod."""
        meta = pod["metadata"]
        self._startable_since.pop(meta["uid"], None)
        self._reported.pop(meta["uid"], None)
        self.waiting.get(meta.get("namespace", ""), set()).discard(meta["name"])

    def sync(self, pod: dict[str, Any], clock: float) -> float | None:
        """Move the pod on as far as it can go now; returns seconds until it wants another look, if any."""
        meta, spec, status = pod["metadata"], pod.get("spec") or {}, pod.get("status") or {}
        phase = status.get("phase")
        runtime = self._runtime if self._runtime is not None and self._runtime.handles(pod) else None
        if runtime is not None and meta.get("deletionTimestamp"):
            if runtime.running(meta["uid"]):
                runtime.terminate(meta["uid"], float(meta.get("deletionGracePeriodSeconds") or 0))
            else:
                self._remove(pod)
        if meta.get("deletionTimestamp") or phase in ("Succeeded", "Failed"):
            self.forget(pod)
            return None
        if runtime is not None and runtime.running(meta["uid"]):
            return None
        lookup = self._cluster.store.peek
        waiting = self.waiting.setdefault(meta["namespace"], set())
        if not spec.get("nodeName"):
            problem = scheduling_problem(lookup, pod)
            if problem:
                waiting.add(meta["name"])
                self._report(pod, "FailedScheduling", problem, "default-scheduler")
                self._write(pod, self._unschedulable(status, problem))
            else:
                self._bind(pod)
            return None
        if phase == "Running" and spec.get("restartPolicy", "Always") == "Always":
            waiting.discard(meta["name"])
            return None
        mount = mount_problem(lookup, pod)
        configs = {c["name"]: why for c in _containers(pod) if (why := config_problem(lookup, pod, c))}
        if mount or configs:
            waiting.add(meta["name"])
            self._startable_since.pop(meta["uid"], None)
            if mount:
                self._report(pod, "FailedMount", mount, "kubelet")
            else:
                self._report(pod, "Failed", f"Error: {next(iter(configs.values()))}", "kubelet")
            self._write(pod, self._pending(pod, {} if mount else configs, sandbox=not mount))
            return None
        waiting.discard(meta["name"])
        if runtime is not None:
            self._start_process(runtime, pod)
            return None
        since = self._startable_since.setdefault(meta["uid"], clock)
        left = since + self._ready_delay - clock
        if left > 0:
            self._write(pod, self._pending(pod, {}, sandbox=False))
            return left
        completes = spec.get("restartPolicy", "Always") != "Always"
        self._write(pod, self._finished(pod) if completes else self._running(pod))
        self._startable_since.pop(meta["uid"], None)
        return None

    # -- the process runtime ----------------------------------------------------------------------------

    def _start_process(self, runtime: ProcessRuntime, pod: dict[str, Any]) -> None:
        def event(type_: str, reason: str, message: str) -> None:
            self._recorder.record(pod, type_, reason, message, "kubelet")

        try:
            runtime.start(self._cluster.store.peek, pod, self._process_writer(pod), lambda: self._remove(pod), event)
        except SetupError as exc:
            self._report(pod, "Failed", f"Error: {exc}", "kubelet")
            names = {c["name"]: str(exc) for c in (pod.get("spec") or {}).get("containers") or []}
            self._write(pod, self._pending(pod, names, sandbox=True))

    def _process_writer(self, pod: dict[str, Any]) -> Callable[[str, list[dict[str, Any]], bool], None]:
        """What the runtime calls with the pod's phase, container statuses and readiness."""
        meta, uid = pod["metadata"], pod["metadata"]["uid"]
        rt = self._cluster.registry.lookup("", "v1", "pods")
        assert rt is not None

        def write(phase: str, containers: list[dict[str, Any]], ready: bool) -> None:
            def mutate(obj: dict[str, Any]) -> bool:
                if obj["metadata"]["uid"] != uid:
                    return False
                old = obj.get("status") or {}
                done = phase in ("Succeeded", "Failed")
                names = " ".join(c["name"] for c in containers if not c["ready"])
                why = "PodCompleted" if done else "" if ready else "ContainersNotReady"
                message = "" if ready or done else f"containers with unready status: [{names}]"
                obj["status"] = {
                    "phase": phase,
                    "hostIP": HOST_IP,
                    "hostIPs": [{"ip": HOST_IP}],
                    "podIP": POD_IP,
                    "podIPs": [{"ip": POD_IP}],
                    "startTime": old.get("startTime") or now(),
                    "qosClass": old.get("qosClass", "BestEffort"),
                    "conditions": [
                        _condition(old, "PodReadyToStartContainers", not done),
                        _condition(old, "Initialized", True, "PodCompleted" if done else ""),
                        _condition(old, "Ready", ready, why, message),
                        _condition(old, "ContainersReady", ready, why, message),
                        _condition(old, "PodScheduled", True),
                    ],
                    "containerStatuses": containers,
                }
                return True

            self._cluster.update_status(rt, meta["namespace"], meta["name"], mutate)

        return write

    def _remove(self, pod: dict[str, Any]) -> None:
        """Delete a terminated pod for good (grace period 0), unless a new pod took its name."""
        meta = pod["metadata"]
        rt = self._cluster.registry.lookup("", "v1", "pods")
        assert rt is not None
        with contextlib.suppress(ApiError):
            options = {"gracePeriodSeconds": 0, "preconditions": {"uid": meta["uid"]}}
            self._cluster.delete(rt, meta["namespace"], meta["name"], options)

    # -- status shapes -------------------------------------------------------------------------------

    def _unschedulable(self, old: dict[str, Any], message: str) -> dict[str, Any]:
        return {
            "phase": "Pending",
            "conditions": [_condition(old, "PodScheduled", False, "Unschedulable", message)],
            "qosClass": old.get("qosClass", "BestEffort"),
        }

    def _base(self, pod: dict[str, Any], phase: str, sandbox: bool) -> dict[str, Any]:
        old = pod.get("status") or {}
        status = {
            "phase": phase,
            "hostIP": HOST_IP,
            "hostIPs": [{"ip": HOST_IP}],
            "startTime": old.get("startTime") or now(),
        }
        if sandbox:
            ip = old.get("podIP") or self._allocate_ip()
            status.update(podIP=ip, podIPs=[{"ip": ip}])
        status["qosClass"] = old.get("qosClass", "BestEffort")
        return status

    def _pending(self, pod: dict[str, Any], configs: dict[str, str], sandbox: bool) -> dict[str, Any]:
        old = pod.get("status") or {}
        status = self._base(pod, "Pending", sandbox)
        names = [c["name"] for c in (pod.get("spec") or {}).get("containers") or []]
        unready = f"containers with unready status: [{' '.join(names)}]"
        status["conditions"] = [
            _condition(old, "PodReadyToStartContainers", sandbox),
            _condition(old, "Initialized", True),
            _condition(old, "Ready", False, "ContainersNotReady", unready),
            _condition(old, "ContainersReady", False, "ContainersNotReady", unready),
            _condition(old, "PodScheduled", True),
        ]
        status["containerStatuses"] = [
            self._container(c, {"waiting": {"reason": "CreateContainerConfigError", "message": configs[c["name"]]}})
            if c["name"] in configs
            else self._container(c, {"waiting": {"reason": "ContainerCreating"}})
            for c in (pod.get("spec") or {}).get("containers") or []
        ]
        return status

    def _running(self, pod: dict[str, Any]) -> dict[str, Any]:
        old = pod.get("status") or {}
        status = self._base(pod, "Running", sandbox=True)
        status["conditions"] = [
            _condition(old, type_, True)
            for type_ in ("PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled")
        ]
        started = {"running": {"startedAt": now()}}
        status["containerStatuses"] = [
            self._container(c, started, ready=True) for c in (pod.get("spec") or {}).get("containers") or []
        ]
        status.update(self._init_statuses(pod))
        return status

    def _finished(self, pod: dict[str, Any]) -> dict[str, Any]:
        old = pod.get("status") or {}
        status = self._base(pod, "Succeeded", sandbox=True)
        status["conditions"] = [
            _condition(old, "PodReadyToStartContainers", False),
            _condition(old, "Initialized", True, "PodCompleted"),
            _condition(old, "Ready", False, "PodCompleted"),
            _condition(old, "ContainersReady", False, "PodCompleted"),
            _condition(old, "PodScheduled", True),
        ]
        status["containerStatuses"] = [
            self._container(c, _completed()) for c in (pod.get("spec") or {}).get("containers") or []
        ]
        status.update(self._init_statuses(pod))
        return status

    def _init_statuses(self, pod: dict[str, Any]) -> dict[str, Any]:
        init = (pod.get("spec") or {}).get("initContainers") or []
        return {"initContainerStatuses": [self._container(c, _completed()) for c in init]} if init else {}

    def _container(self, container: dict[str, Any], state: dict[str, Any], ready: bool = False) -> dict[str, Any]:
        status: dict[str, Any] = {
            "name": container["name"],
            "image": container.get("image", ""),
            "imageID": "",
            "ready": ready,
            "restartCount": 0,
            "started": "running" in state,
            "state": state,
        }
        if "waiting" not in state:
            digest = f"{abs(hash((container['name'], container.get('image', '')))):016x}"
            status["containerID"] = f"containerd://{digest}"
        return status

    # -- writes ----------------------------------------------------------------------------------------

    def _bind(self, pod: dict[str, Any]) -> None:
        meta = pod["metadata"]

        def bind(obj: dict[str, Any]) -> bool:
            if obj["spec"].get("nodeName"):
                return False
            obj["spec"]["nodeName"] = NODE_NAME
            status = obj.setdefault("status", {})
            status["phase"] = "Pending"
            status["conditions"] = [_condition(status, "PodScheduled", True)]
            return True

        rt = self._cluster.registry.lookup("", "v1", "pods")
        assert rt is not None
        self._cluster.update_status(rt, meta["namespace"], meta["name"], bind)
        message = f"Successfully assigned {meta['namespace']}/{meta['name']} to {NODE_NAME}"
        self._recorder.record(pod, NORMAL, "Scheduled", message, "default-scheduler")

    def _write(self, pod: dict[str, Any], status: dict[str, Any]) -> None:
        if _strip_times(pod.get("status") or {}) == _strip_times(status):
            return
        meta, uid = pod["metadata"], pod["metadata"]["uid"]

        def mutate(obj: dict[str, Any]) -> bool:
            if obj["metadata"]["uid"] != uid or obj["metadata"].get("deletionTimestamp"):
                return False
            obj["status"] = copy.deepcopy(status)
            return True

        rt = self._cluster.registry.lookup("", "v1", "pods")
        assert rt is not None
        self._cluster.update_status(rt, meta["namespace"], meta["name"], mutate)

    def _report(self, pod: dict[str, Any], reason: str, message: str, component: str) -> None:
        """A Warning Event, recorded when the pod's problem changes (repeats are aggregated anyway)."""
        uid = pod["metadata"]["uid"]
        if self._reported.get(uid) != (reason, message):
            self._reported[uid] = (reason, message)
            self._recorder.record(pod, WARNING, reason, message, component)

    def _allocate_ip(self) -> str:
        n = next(self._ips)
        return f"10.244.{n // 250}.{n % 250 + 1}"


def _completed() -> dict[str, Any]:
    stamp = now()
    return {"terminated": {"exitCode": 0, "reason": "Completed", "startedAt": stamp, "finishedAt": stamp}}
