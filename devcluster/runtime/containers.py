"""One container's process: spawned in its own mount namespace and session, its output appended to a log file,
stopped as a container runtime stops one (SIGTERM to the main process, SIGKILL to its whole group after the
grace period; whatever is left of the group is killed when the main process exits, as a PID namespace would)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from devcluster.runtime.volumes import Mount

__all__ = ["ContainerProcess", "ContainerSpec", "group_alive", "kill_group"]

PROJECT_ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class ContainerSpec:
    """Everything needed to start the container's process."""

    name: str
    argv: list[str]
    env: dict[str, str]
    workdir: str
    mounts: tuple[Mount, ...]
    read_only_root: bool
    uid: int | None
    gid: int | None
    groups: list[int] | None
    log_path: Path
    spec_path: Path


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def kill_group(pgid: int, sig: int = signal.SIGKILL) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


class ContainerProcess:
    """A started container process (its pid is the process group's id)."""

    def __init__(self, spec: ContainerSpec) -> None:
        spec.spec_path.write_text(json.dumps(self._init_spec(spec)))
        spec.log_path.parent.mkdir(parents=True, exist_ok=True)
        command = [
            "unshare",
            "--mount",
            "--propagation",
            "private",
            "--",
            sys.executable,
            "-m",
            "devcluster.runtime.init",
            str(spec.spec_path),
        ]
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(PROJECT_ROOT)}
        with spec.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                command,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.pid = self.process.pid

    @staticmethod
    def _init_spec(spec: ContainerSpec) -> dict[str, Any]:
        return {
            "mounts": [
                {"source": m.source, "target": m.target, "read_only": m.read_only, "tmpfs": m.tmpfs}
                for m in spec.mounts
            ],
            "read_only_root": spec.read_only_root,
            "uid": spec.uid,
            "gid": spec.gid,
            "groups": spec.groups,
            "workdir": spec.workdir,
            "argv": spec.argv,
            "env": spec.env,
        }

    def poll(self) -> int | None:
        """The exit code once the main process has exited (the rest of its group is killed then)."""
        code = self.process.poll()
        if code is not None:
            kill_group(self.pid)
        return code

    def terminate(self) -> None:
        """SIGTERM to the main process, as the container runtime sends it to the container's PID 1."""
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        """SIGKILL the whole group and wait (bounded) until none of it is left, zombies reaped included."""
        kill_group(self.pid)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
        deadline = time.monotonic() + 5
        while group_alive(self.pid) and time.monotonic() < deadline:
            kill_group(self.pid)
            time.sleep(0.02)
