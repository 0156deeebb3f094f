"""Container probes as a kubelet runs them (https://kubernetes.io/docs/concepts/configuration/liveness-readiness-startup-probes/):
httpGet (2xx/3xx succeeds), tcpSocket (a connection succeeds) and exec (exit code 0, run in the container's
mount namespace with its environment), each every `periodSeconds` after `initialDelaySeconds`, with
`timeoutSeconds`, deciding after `successThreshold` successes or `failureThreshold` failures in a row."""

from __future__ import annotations

import http.client
import socket
import subprocess
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

__all__ = ["Probe", "ProbeKind", "Target", "run_probe"]


class ProbeKind(StrEnum):
    STARTUP = "startupProbe"
    READINESS = "readinessProbe"
    LIVENESS = "livenessProbe"

    @property
    def label(self) -> str:
        """`Startup`, `Readiness` or `Liveness`, as the kubelet's Unhealthy Events say."""
        return self.value.removesuffix("Probe").capitalize()


@dataclass
class Probe:
    """One probe's schedule and its consecutive results; `passing` is the decided outcome so far."""

    spec: dict[str, Any]
    passing: bool = False
    successes: int = 0
    failures: int = 0
    next_at: float = 0.0
    failed: bool = field(default=False)

    def schedule(self, started: float) -> None:
        self.next_at = started + float(self.spec.get("initialDelaySeconds", 0))

    def record(self, ok: bool, now: float) -> None:
        self.next_at = now + float(self.spec.get("periodSeconds", 10))
        if ok:
            self.successes, self.failures = self.successes + 1, 0
            if self.successes >= int(self.spec.get("successThreshold", 1)):
                self.passing, self.failed = True, False
        else:
            self.successes, self.failures = 0, self.failures + 1
            if self.failures >= int(self.spec.get("failureThreshold", 3)):
                self.passing, self.failed = False, True


@dataclass(frozen=True)
class Target:
    """Where a container's probes go: its named ports, the loopback port its first containerPort maps to, and
    how to enter it for exec probes."""

    ports: dict[str, int]
    port_map: dict[int, int]
    host: str
    pid: int
    env: dict[str, str]

    def port(self, value: int | str) -> int:
        container_port = self.ports[value] if isinstance(value, str) else int(value)
        return self.port_map.get(container_port, container_port)


def run_probe(spec: dict[str, Any], target: Target) -> bool:
    timeout = float(spec.get("timeoutSeconds", 1))
    try:
        if "httpGet" in spec:
            get = spec["httpGet"]
            port = target.port(get.get("port", 80))
            conn_class = http.client.HTTPSConnection if get.get("scheme") == "HTTPS" else http.client.HTTPConnection
            conn = conn_class("127.0.0.1", port, timeout=timeout)
            try:
                headers = {"Host": f"{target.host}:{port}", "User-Agent": "kube-probe/1.31"}
                headers.update({h["name"]: h["value"] for h in get.get("httpHeaders") or []})
                conn.request("GET", get.get("path", "/"), headers=headers)
                return 200 <= conn.getresponse().status < 400
            finally:
                conn.close()
        if "tcpSocket" in spec:
            with socket.create_connection(("127.0.0.1", target.port(spec["tcpSocket"]["port"])), timeout=timeout):
                return True
        if "exec" in spec:
            command = ["nsenter", "--target", str(target.pid), "--mount", "--", *spec["exec"]["command"]]
            done = subprocess.run(command, env=target.env, capture_output=True, timeout=timeout, check=False)
            return done.returncode == 0
    except (OSError, KeyError, subprocess.TimeoutExpired, http.client.HTTPException):
        return False
    return False
