"""Test helpers (Django imported only where used): a sample kubeconfig, running the project's own commands, rate
windows, and running a gateway's passes until it gets somewhere."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import yaml

from tests.paths import PROJECT_ROOT
from tests.ports import free_port
from tests.waiting import wait_until

# A kubeconfig that points at a closed port: valid to every validator, unreachable on purpose.
KUBECONFIG = """\
apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: "http://127.0.0.1:1"}
contexts:
- name: c
  context: {cluster: c, user: u}
current-context: c
users:
- name: u
  user: {token: super-secret-token-value}
"""


def closed_port_kubeconfig(kubeconfig: str) -> str:
    """The same kubeconfig pointed at a loopback port nothing listens on."""
    config = yaml.safe_load(kubeconfig)
    config["clusters"][0]["cluster"]["server"] = f"http://127.0.0.1:{free_port()}"
    return yaml.safe_dump(config)


def run_manage(*args: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run ``manage.py`` with the test environment, optionally overriding variables (None values unset)."""
    merged = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, str(PROJECT_ROOT / "manage.py"), *args],
        env={k: v for k, v in merged.items() if v is not None},
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=PROJECT_ROOT,
    )


def clear_of_a_rate_window_edge(duration: int, margin: float = 60) -> None:
    """Wait, if need be, until at least ``margin`` seconds of the current fixed rate window are left.

    Requests that straddle two windows are estimated a fraction low by the sliding window, by design, so a
    test that counts to a limit must not cross an edge (at a minute's edge, that failed one CI run).
    """
    wait_until(lambda: duration - time.time() % duration >= margin, "a fresh rate window", margin + 1, interval=0.1)


def release_of(namespace: str) -> str:
    """The Helm release of a gateway whose name has at most 24 characters: its namespace without `gw-`
    (both are `<name>-<id8>` after the prefix; see Gateway.assign_namespace)."""
    return namespace.removeprefix("gw-")


def converge_by_passes(gateway: Any, done: Callable[[Any], bool], timeout: float = 60.0) -> Any:
    """Run passes as the worker would until ``done`` holds for the gateway at its current generation (the
    gateway, or None once it is gone). Bounded by time, not by a count of passes: a pass is quick, and the
    cluster's pods take what they take."""
    from gateways.models import Gateway
    from workers.reconcile.gateway.passes.run import run_pass

    seen: list[Any] = [None]

    def arrived() -> tuple[Any] | None:
        run_pass(str(gateway.pk))
        current = seen[0] = Gateway.objects.filter(pk=gateway.pk).first()
        if current is None or (current.observed_generation == current.generation and done(current)):
            return (current,)  # truthy even when the gateway is gone
        return None

    def where() -> str:
        return f"{gateway.name} to get there: {seen[0] and (seen[0].phase, seen[0].conditions)}"

    return wait_until(arrived, where, timeout, interval=0.1)[0]


class FakeClock:
    """A monotonic clock that moves only when ``sleep`` is called; every pause is recorded."""

    def __init__(self) -> None:
        self.now = 0.0
        self.pauses: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.pauses.append(seconds)
        self.now += seconds
