"""One pod's containers, supervised on a thread of their own: started, probed, restarted by the pod's
restartPolicy with the kubelet's back-off, and stopped on deletion within the grace period; the pod's status
is written whenever what it says changes. After https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/.
"""

from __future__ import annotations

import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from devcluster.meta import now
from devcluster.runtime.containers import ContainerProcess, ContainerSpec
from devcluster.runtime.probes import Probe, ProbeKind, Target, run_probe

__all__ = ["ContainerRun", "PodRun", "RestartPolicy", "restart_delay"]

BACKOFF_BASE_SECONDS = 10.0
BACKOFF_CAP_SECONDS = 300.0
BACKOFF_RESET_SECONDS = 600.0
TICK_SECONDS = 0.1


class RestartPolicy(StrEnum):
    ALWAYS = "Always"
    ON_FAILURE = "OnFailure"
    NEVER = "Never"


def restart_delay(crashes: int) -> float:
    """The kubelet's back-off before restart number `crashes` (1-based): at once, then 10 s doubling to 5 min."""
    return 0.0 if crashes <= 1 else min(BACKOFF_BASE_SECONDS * 2 ** (crashes - 2), BACKOFF_CAP_SECONDS)


def exit_code(returncode: int) -> int:
    """A shell-style exit code: killed by signal N is 128+N."""
    return 128 - returncode if returncode < 0 else returncode


@dataclass
class ContainerRun:
    """One container's state across restarts."""

    spec: ContainerSpec
    probe_specs: dict[ProbeKind, dict[str, Any]]
    ports: dict[str, int]
    port_map: dict[int, int]
    image: str
    process: ContainerProcess | None = None
    started_at: float = 0.0
    started_stamp: str = ""
    restart_count: int = 0
    crashes: int = 0
    restart_at: float = 0.0
    finished: bool = False
    last_state: dict[str, Any] = field(default_factory=dict)
    probes: dict[ProbeKind, Probe] = field(default_factory=dict)
    stop_deadline: float | None = None

    def start(self, clock: float) -> None:
        self.process = ContainerProcess(self.spec)
        self.started_at, self.started_stamp, self.stop_deadline = clock, now(), None
        self.probes = {kind: Probe(spec) for kind, spec in self.probe_specs.items()}
        for probe in self.probes.values():
            probe.schedule(clock)

    @property
    def started(self) -> bool:
        startup = self.probes.get(ProbeKind.STARTUP)
        return self.process is not None and (startup is None or startup.passing)

    @property
    def ready(self) -> bool:
        if not self.started or self.stop_deadline is not None:
            return False
        readiness = self.probes.get(ProbeKind.READINESS)
        return readiness is None or readiness.passing

    def probe(self, clock: float, host: str, grace: float) -> list[ProbeKind]:
        """Run the probes that are due and return those that failed; a failed startup or liveness probe (past
        its failureThreshold) stops the container to restart it."""
        assert self.process is not None
        target = Target(self.ports, self.port_map, host, self.process.pid, self.spec.env)
        order = [ProbeKind.STARTUP] if not self.started else [ProbeKind.LIVENESS, ProbeKind.READINESS]
        failed = []
        for kind in order:
            probe = self.probes.get(kind)
            if probe is None or clock < probe.next_at:
                continue
            ok = run_probe(probe.spec, target)
            probe.record(ok, time.monotonic())
            if not ok:
                failed.append(kind)
            if probe.failed and kind != ProbeKind.READINESS and self.stop_deadline is None:
                self.stop(clock, grace)
        return failed

    def stop(self, clock: float, grace: float) -> None:
        if self.process is not None and self.stop_deadline is None:
            self.process.terminate()
            self.stop_deadline = clock + grace

    def reap(self, clock: float, policy: RestartPolicy) -> None:
        """After the process exited: record it, and restart it per the policy (after the back-off)."""
        assert self.process is not None
        code = exit_code(self.process.poll() or 0)
        self.last_state = {
            "terminated": {
                "exitCode": code,
                "reason": "Completed" if code == 0 else "Error",
                "startedAt": self.started_stamp,
                "finishedAt": now(),
            }
        }
        if clock - self.started_at > BACKOFF_RESET_SECONDS:
            self.crashes = 0
        self.process, self.probes, self.stop_deadline = None, {}, None
        if policy == RestartPolicy.NEVER or (policy == RestartPolicy.ON_FAILURE and code == 0):
            self.finished = True
            return
        self.crashes += 1
        self.restart_count += 1
        self.restart_at = clock + restart_delay(self.crashes)

    def status(self) -> dict[str, Any]:
        status: dict[str, Any] = {
            "name": self.spec.name,
            "image": self.image,
            "imageID": "",
            "ready": self.ready,
            "restartCount": self.restart_count,
            "started": self.started,
        }
        if self.process is not None:
            status["state"] = {"running": {"startedAt": self.started_stamp}}
            status["containerID"] = f"process://{self.process.pid}"
        elif self.finished:
            status["state"] = self.last_state
        else:
            reason = "CrashLoopBackOff" if self.restart_at > time.monotonic() else "ContainerCreating"
            status["state"] = {"waiting": {"reason": reason}}
            if reason == "CrashLoopBackOff":
                status["state"]["waiting"]["message"] = f"back-off restarting failed container {self.spec.name}"
        if self.last_state:
            status["lastState"] = self.last_state
        return status


class PodRun:
    """The thread that runs one pod's containers; `terminate` starts a graceful stop, `kill` ends it at once."""

    def __init__(
        self,
        uid: str,
        containers: list[ContainerRun],
        policy: RestartPolicy,
        grace_period: float,
        host: str,
        write: Callable[[str, list[dict[str, Any]], bool], None],
        removed: Callable[[], None],
        event: Callable[[str, str, str], None],
    ) -> None:
        self.uid = uid
        self.containers = containers
        self.policy = policy
        self.grace_period = grace_period
        self.host = host
        self._write = write
        self._removed = removed
        self._event = event
        self._lock = threading.Lock()
        self._grace: float | None = None
        self._deadline: float | None = None
        self._stop = threading.Event()
        self._last: Any = None
        self.thread = threading.Thread(target=self._run, name=f"pod-{uid[:8]}", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def terminate(self, grace: float) -> None:
        with self._lock:
            if self._grace is None:
                self._grace = grace

    def kill(self) -> None:
        """Stop every process now (the pod is gone from the store, or devcluster stops)."""
        self.halt()
        for container in self.containers:
            if container.process is not None:
                container.process.kill()

    def halt(self) -> None:
        """Stop supervising (no restart, no status write) without stopping the processes."""
        self._stop.set()
        if self.thread.is_alive() and self.thread is not threading.current_thread():
            self.thread.join(timeout=10)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                if self._tick(time.monotonic()):
                    self._removed()
                    return
            except Exception:  # a supervisor must outlive one bad pass (a failed spawn, a store error)
                traceback.print_exc()
                self._stop.wait(1.0)
            self._stop.wait(TICK_SECONDS)

    def _tick(self, clock: float) -> bool:
        """One pass; True once a terminating pod's processes have all exited."""
        with self._lock:
            grace = self._grace
        if grace is not None:
            return self._terminating(clock, grace)
        for container in self.containers:
            name = container.spec.name
            if container.process is None:
                if not container.finished and clock >= container.restart_at:
                    container.start(clock)
                    self._event("Normal", "Started", f"Started container {name}")
            elif container.process.poll() is not None:
                container.reap(clock, self.policy)
                if container.restart_at > clock:
                    self._event("Warning", "BackOff", f"Back-off restarting failed container {name}")
            elif container.stop_deadline is not None:
                if clock >= container.stop_deadline:
                    container.process.kill()
            else:
                for kind in container.probe(clock, self.host, self.grace_period):
                    self._event("Warning", "Unhealthy", f"{kind.label} probe failed")
                if container.stop_deadline is not None:
                    self._event("Normal", "Killing", f"Container {name} failed its probe, will be restarted")
        self._report()
        return False

    def _terminating(self, clock: float, grace: float) -> bool:
        if self._deadline is None:
            self._deadline = clock + grace
            for container in self.containers:
                if container.process is not None:
                    self._event("Normal", "Killing", f"Stopping container {container.spec.name}")
                container.stop(clock, grace)
            self._report()
        running = [c for c in self.containers if c.process is not None and c.process.poll() is None]
        if clock >= self._deadline:
            for container in running:
                container.process.kill()  # type: ignore[union-attr]
            running = []
        return not running

    def _report(self) -> None:
        statuses = [c.status() for c in self.containers]
        if all(c.finished for c in self.containers):
            phase = (
                "Succeeded" if all(c.last_state["terminated"]["exitCode"] == 0 for c in self.containers) else "Failed"
            )
        elif any(c.process is not None or c.restart_count for c in self.containers):
            phase = "Running"
        else:
            phase = "Pending"
        key = (phase, _strip_times(statuses))
        if key != self._last:
            self._last = key
            self._write(phase, statuses, all(c.ready for c in self.containers))


def _strip_times(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip_times(v) for k, v in value.items() if not k.endswith("At")}
    if isinstance(value, list):
        return [_strip_times(v) for v in value]
    return value
