"""The opt-in process runtime: pods whose every container runs the control plane image (matched by repository;
the tag and digest are ignored, the checkout is the image) run as real processes, each container in its own
mount namespace with the image's files (the checkout, read-only) at the image's WORKDIR and its volumes at their
mountPaths. The network is the host's loopback: see `devcluster/README.md` for how that differs from a kubelet.
"""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from devcluster.runtime.containers import ContainerSpec, kill_group
from devcluster.runtime.env import Lookup, container_env
from devcluster.runtime.image import ImageConfig, parse_dockerfile, repository_of
from devcluster.runtime.pods import ContainerRun, PodRun, RestartPolicy
from devcluster.runtime.probes import ProbeKind
from devcluster.runtime.volumes import DirectoryKind, Mount, plan_volumes

__all__ = ["POD_IP", "ProcessRuntime", "RuntimeConfig"]

POD_IP = "127.0.0.1"  # every pod shares the host's loopback, like a hostNetwork pod
Writer = Callable[[str, list[dict[str, Any]], bool], None]
Recorder = Callable[[str, str, str], None]  # Event type, reason, message about the pod


@dataclass(frozen=True)
class RuntimeConfig:
    """Which pods run (their image repository), from which checkout, and where their files live."""

    image_repository: str
    root: Path
    state_dir: Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def interpreter_mounts(venv: Path) -> tuple[Mount, ...]:
    """What makes the virtualenv's interpreter usable by any user: its installation bound read-only at its own
    path, under an empty tmpfs on the first ancestor other users cannot enter (such as a 0700 /root)."""
    config = venv / "pyvenv.cfg"
    if not config.exists():
        return ()
    home = next(
        (
            line.split("=", 1)[1].strip()
            for line in config.read_text().splitlines()
            if line.split("=", 1)[0].strip() == "home"
        ),
        "",
    )
    prefix = Path(home).parent
    closed = next((p for p in reversed(prefix.parents) if p != Path("/") and not os.stat(p).st_mode & 0o001), None)
    if not home or closed is None:
        return ()
    return Mount("", str(closed), read_only=False, tmpfs=True), Mount(str(prefix), str(prefix), read_only=True)


def image_mounts(root: Path, workdir: str) -> tuple[Mount, ...]:
    """The image's files at its WORKDIR as an image ships them, world-readable whatever the checkout's own mode: a
    tmpfs (0755) at WORKDIR with each top-level entry of the checkout bound read-only into it. Binding the checkout
    itself would carry its root's mode, and a 0700 checkout (`mktemp -d`) would shut out the pod's user."""
    entries = sorted(root.iterdir())
    return (
        Mount("", workdir, read_only=False, tmpfs=True),
        *(Mount(str(entry), f"{workdir}/{entry.name}", read_only=True) for entry in entries),
    )


def prepare_directory(path: Path, kind: DirectoryKind, fs_group: int | None) -> None:
    """Create the directory as the kubelet leaves it: an emptyDir 0777, a claim's fresh volume root's 0755; with
    an fsGroup it becomes that group's, group-writable and setgid (volume ownership management), and a claim
    another pod set up keeps what it has otherwise."""
    if not path.exists():
        path.mkdir(parents=True)
        os.chmod(path, {DirectoryKind.EMPTY_DIR: 0o777, DirectoryKind.CLAIM: 0o755, DirectoryKind.FILES: 0o755}[kind])
    if fs_group is not None:
        os.chown(path, 0, int(fs_group))
        os.chmod(path, path.stat().st_mode & 0o7777 | (0o2050 if kind == DirectoryKind.FILES else 0o2070))


def command_of(container: dict[str, Any], image: ImageConfig) -> list[str]:
    """`command` replaces the ENTRYPOINT and `args` the CMD; a `command` without `args` drops the CMD."""
    command = container.get("command")
    args = container.get("args")
    return [*(command or image.entrypoint), *(args if args is not None else ([] if command else image.cmd))]


def _ids(pod: dict[str, Any], container: dict[str, Any], image: ImageConfig) -> tuple[int, int, list[int]]:
    pod_context = (pod.get("spec") or {}).get("securityContext") or {}
    context = {**pod_context, **(container.get("securityContext") or {})}
    user, _, group = image.user.partition(":")
    uid = context.get("runAsUser", int(user) if user.isdigit() else 0)
    gid = context.get("runAsGroup", int(group) if group.isdigit() else uid)
    groups = [g for g in (pod_context.get("fsGroup"), *(pod_context.get("supplementalGroups") or [])) if g is not None]
    return int(uid), int(gid), [int(g) for g in groups]


class ProcessRuntime:
    """Starts and stops the process-run pods; everything else about pods stays with the kubelet."""

    def __init__(self, config: RuntimeConfig) -> None:
        self.config = config
        image = parse_dockerfile((config.root / "Dockerfile").read_text())
        # The image installs the locked requirements into its system python; the checkout's virtualenv stands in.
        venv = f"{image.workdir}/.venv/bin"
        self.image = replace(image, env={**image.env, "PATH": f"{venv}:{image.env.get('PATH', '')}"})
        self._interpreter = interpreter_mounts(config.root / ".venv")
        self._pods: dict[str, PodRun] = {}
        self._lock = threading.Lock()

    def handles(self, pod: dict[str, Any]) -> bool:
        spec = pod.get("spec") or {}
        containers = spec.get("containers") or []
        return (
            bool(containers)
            and not spec.get("initContainers")
            and all(repository_of(c.get("image", "")) == self.config.image_repository for c in containers)
        )

    def running(self, uid: str) -> bool:
        with self._lock:
            return uid in self._pods

    def pod_dir(self, pod: dict[str, Any]) -> Path:
        meta = pod["metadata"]
        return self.config.state_dir / "pods" / f"{meta['namespace']}_{meta['name']}_{meta['uid']}"

    def log_path(self, pod: dict[str, Any], container: str) -> Path:
        return self.pod_dir(pod) / "logs" / f"{container}.log"

    def endpoint(self, uid: str, port: int | str) -> int | None:
        """The loopback port serving the pod's container port (a number or a port name), if it maps one."""
        with self._lock:
            run = self._pods.get(uid)
        if run is None:
            return None
        for container in run.containers:
            number = container.ports.get(port) if isinstance(port, str) else int(port)
            if number is not None and number in container.port_map:
                return container.port_map[number]
        return None

    def start(
        self, lookup: Lookup, pod: dict[str, Any], write: Writer, removed: Callable[[], None], event: Recorder
    ) -> None:
        """Resolve the containers' environment and volumes (EnvError, VolumeError), then run the pod."""
        meta, spec = pod["metadata"], pod.get("spec") or {}
        pod_dir = self.pod_dir(pod)
        runs = [self._container(lookup, pod, c, pod_dir) for c in spec.get("containers") or []]
        policy = RestartPolicy(spec.get("restartPolicy", "Always"))
        grace = float(spec.get("terminationGracePeriodSeconds", 30))
        run = PodRun(
            meta["uid"], runs, policy, grace, POD_IP, write, lambda: self._removed(meta["uid"], removed), event
        )
        with self._lock:
            self._pods[meta["uid"]] = run
        run.start()

    def _removed(self, uid: str, removed: Callable[[], None]) -> None:
        with self._lock:
            self._pods.pop(uid, None)
        removed()

    def _container(self, lookup: Lookup, pod: dict[str, Any], container: dict[str, Any], pod_dir: Path) -> ContainerRun:
        name = container["name"]
        pod_dir.mkdir(parents=True, exist_ok=True)
        plan = plan_volumes(lookup, pod, container, str(pod_dir), str(self.config.state_dir / "claims"))
        fs_group = ((pod.get("spec") or {}).get("securityContext") or {}).get("fsGroup")
        for directory, kind in plan.directories.items():
            prepare_directory(Path(directory), kind, fs_group)
        for path, data in plan.files.items():
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            Path(path).write_bytes(data)
            os.chmod(path, 0o644)
            if fs_group is not None:
                os.chown(path, 0, int(fs_group))
        uid, gid, groups = _ids(pod, container, self.image)
        env = {"HOME": self.image.homes.get(uid, "/root" if uid == 0 else "/"), "HOSTNAME": pod["metadata"]["name"]}
        env.update(container_env(lookup, pod, container, self.image.env))
        ports = [p for p in container.get("ports") or [] if p.get("containerPort")]
        port_map = {int(ports[0]["containerPort"]): free_port()} if ports else {}
        if port_map:
            env["PORT"] = str(next(iter(port_map.values())))
        image = image_mounts(self.config.root, self.image.workdir)
        mounts = tuple(sorted((*self._interpreter, *image, *plan.mounts), key=lambda m: len(Path(m.target).parts)))
        context = container.get("securityContext") or {}
        spec = ContainerSpec(
            name=name,
            argv=command_of(container, self.image),
            env=env,
            workdir=container.get("workingDir") or self.image.workdir,
            mounts=mounts,
            read_only_root=bool(context.get("readOnlyRootFilesystem")),
            uid=uid,
            gid=gid,
            groups=groups,
            log_path=pod_dir / "logs" / f"{name}.log",
            spec_path=pod_dir / f"{name}.json",
        )
        probes = {kind: container[kind.value] for kind in ProbeKind if container.get(kind.value)}
        named = {p["name"]: int(p["containerPort"]) for p in ports if p.get("name")}
        return ContainerRun(spec, probes, named, port_map, container.get("image", ""))

    def terminate(self, uid: str, grace: float) -> None:
        with self._lock:
            run = self._pods.get(uid)
        if run is not None:
            run.terminate(grace)

    def discard(self, uid: str) -> None:
        """The pod is gone from the store: its processes stop now."""
        with self._lock:
            run = self._pods.pop(uid, None)
        if run is not None:
            run.kill()

    def shutdown(self) -> None:
        """Kill every pod's processes (devcluster is stopping)."""
        with self._lock:
            runs = list(self._pods.values())
            self._pods.clear()
        for run in runs:
            run.halt()
        for run in runs:
            for container in run.containers:
                if container.process is not None:
                    kill_group(container.process.pid)
        for run in runs:
            run.kill()
