"""Test helpers without Django: a sample kubeconfig, running the project's own commands, and rate windows."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
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


def run_manage(*args: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run ``manage.py`` with the test environment, optionally overriding variables (None values unset)."""
    merged = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        env={k: v for k, v in merged.items() if v is not None},
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


def clear_of_a_rate_window_edge(duration: int, margin: float = 60) -> None:
    """Sleep, if need be, until ``margin`` seconds of the current fixed rate window are left.

    Requests that straddle two windows are estimated a fraction low by the sliding window, by design, so a
    test that counts to a limit must not cross an edge (at a minute's edge, that failed one CI run).
    """
    left = duration - time.time() % duration
    if left < margin:
        time.sleep(left + 0.1)


def release_of(namespace: str) -> str:
    """The Helm release of a gateway whose name has at most 24 characters: its namespace without `gw-`
    (both are `<name>-<id8>` after the prefix; see Gateway.assign_namespace)."""
    return namespace.removeprefix("gw-")
