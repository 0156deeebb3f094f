"""Server-side defaulting applied when objects are written, per kind."""

from __future__ import annotations

import base64
import itertools
import random
import socket
import threading
from typing import Any

from devcluster.resources import ResourceType

NODE_PORT_RANGE = range(30000, 32768)


def _free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


class Defaulter:
    """Fills the fields a real API server defaults; allocates Service cluster IPs and node ports."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._ips = itertools.count(10)
        self._node_ports: set[int] = set()

    def apply(self, rt: ResourceType, obj: dict[str, Any], old: dict[str, Any] | None) -> None:
        handler = getattr(self, f"_default_{rt.kind.lower()}", None)
        if rt.group in ("", "apps", "batch", "apiextensions.k8s.io") and handler is not None:
            handler(obj, old)

    def _default_namespace(self, obj: dict[str, Any], old: dict[str, Any] | None) -> None:
        name = obj["metadata"]["name"]
        obj["metadata"].setdefault("labels", {})["kubernetes.io/metadata.name"] = name
        obj.setdefault("spec", {}).setdefault("finalizers", ["kubernetes"])
        obj.setdefault("status", {}).setdefault("phase", "Active")

    def _default_secret(self, obj: dict[str, Any], old: dict[str, Any] | None) -> None:
        obj.setdefault("type", "Opaque")
        string_data = obj.pop("stringData", None) or {}
        data = obj.get("data") or {}
        for key, value in string_data.items():
            data[key] = base64.b64encode(str(value).encode()).decode()
        if data:
            obj["data"] = data

    def _default_service(self, obj: dict[str, Any], old: dict[str, Any] | None) -> None:
        spec = obj.setdefault("spec", {})
        old_spec = (old or {}).get("spec") or {}
        spec.setdefault("type", "ClusterIP")
        if spec["type"] != "ExternalName" and not spec.get("clusterIP"):
            spec["clusterIP"] = old_spec.get("clusterIP") or self._allocate_ip()
        if spec.get("clusterIP") and spec["clusterIP"] != "None":
            spec.setdefault("clusterIPs", [spec["clusterIP"]])
        spec.setdefault("sessionAffinity", "None")
        spec.setdefault("ipFamilies", ["IPv4"])
        spec.setdefault("ipFamilyPolicy", "SingleStack")
        spec.setdefault("internalTrafficPolicy", "Cluster")
        old_ports = {p.get("port"): p for p in old_spec.get("ports") or []}
        for port in spec.get("ports") or []:
            port.setdefault("protocol", "TCP")
            port.setdefault("targetPort", port.get("port"))
            if spec["type"] in ("NodePort", "LoadBalancer") and not port.get("nodePort"):
                port["nodePort"] = old_ports.get(port.get("port"), {}).get("nodePort") or self._allocate_node_port()
        obj.setdefault("status", {}).setdefault("loadBalancer", {})

    def _default_deployment(self, obj: dict[str, Any], old: dict[str, Any] | None) -> None:
        spec = obj.setdefault("spec", {})
        spec.setdefault("replicas", 1)
        spec.setdefault("revisionHistoryLimit", 10)
        spec.setdefault("progressDeadlineSeconds", 600)
        strategy = spec.setdefault("strategy", {"type": "RollingUpdate"})
        if strategy.get("type") == "RollingUpdate":
            strategy.setdefault("rollingUpdate", {"maxUnavailable": "25%", "maxSurge": "25%"})
        _default_pod_template(spec, "Always")

    def _default_statefulset(self, obj: dict[str, Any], old: dict[str, Any] | None) -> None:
        spec = obj.setdefault("spec", {})
        spec.setdefault("replicas", 1)
        spec.setdefault("podManagementPolicy", "OrderedReady")
        spec.setdefault("revisionHistoryLimit", 10)
        strategy = spec.setdefault("updateStrategy", {"type": "RollingUpdate"})
        if strategy.get("type") == "RollingUpdate":
            strategy.setdefault("rollingUpdate", {"partition": 0})
        _default_pod_template(spec, "Always")

    def _default_job(self, obj: dict[str, Any], old: dict[str, Any] | None) -> None:
        spec = obj.setdefault("spec", {})
        spec.setdefault("completions", 1)
        spec.setdefault("parallelism", 1)
        spec.setdefault("backoffLimit", 6)
        spec.setdefault("completionMode", "NonIndexed")
        _default_pod_template(spec, None)

    def _default_pod(self, obj: dict[str, Any], old: dict[str, Any] | None) -> None:
        spec = obj.setdefault("spec", {})
        _default_pod_spec(spec, "Always")
        spec.setdefault("schedulerName", "default-scheduler")
        obj.setdefault("status", {}).setdefault("phase", "Pending")

    def _default_customresourcedefinition(self, obj: dict[str, Any], old: dict[str, Any] | None) -> None:
        spec = obj.setdefault("spec", {})
        names = spec.setdefault("names", {})
        names.setdefault("singular", names.get("kind", "").lower())
        names.setdefault("listKind", f"{names.get('kind', '')}List")
        status = obj.setdefault("status", {})
        status["acceptedNames"] = names
        status["storedVersions"] = [v["name"] for v in spec.get("versions") or [] if v.get("storage")]
        status["conditions"] = [
            {"type": "NamesAccepted", "status": "True", "reason": "NoConflicts", "message": "no conflicts found"},
            {
                "type": "Established",
                "status": "True",
                "reason": "InitialNamesAccepted",
                "message": "the initial names have been accepted",
            },
        ]

    def _allocate_ip(self) -> str:
        with self._lock:
            n = next(self._ips)
        return f"10.96.{n // 250}.{n % 250 + 1}"

    def _allocate_node_port(self) -> int:
        """A random port of 30000-32767 not handed out before, as upstream's allocator; one in use on this host
        is skipped too, since the process runtime's kube-proxy stand-in listens on it."""
        with self._lock:
            while True:
                port = random.randrange(NODE_PORT_RANGE.start, NODE_PORT_RANGE.stop)
                if port not in self._node_ports and _free(port):
                    self._node_ports.add(port)
                    return port


def _default_pod_template(spec: dict[str, Any], restart_policy: str | None) -> None:
    _default_pod_spec(spec.setdefault("template", {}).setdefault("spec", {}), restart_policy)


def _default_pod_spec(pod_spec: dict[str, Any], restart_policy: str | None) -> None:
    if restart_policy:
        pod_spec.setdefault("restartPolicy", restart_policy)
    pod_spec.setdefault("dnsPolicy", "ClusterFirst")
    pod_spec.setdefault("terminationGracePeriodSeconds", 30)
    for container in pod_spec.get("containers") or []:
        container.setdefault("imagePullPolicy", "IfNotPresent")
        container.setdefault("terminationMessagePath", "/dev/termination-log")
        for port in container.get("ports") or []:
            port.setdefault("protocol", "TCP")
