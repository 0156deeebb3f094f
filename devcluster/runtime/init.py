"""A container's first process: run by the supervisor under `unshare -m --propagation private`, it bind-mounts
the container's volumes (and the image's files) at their container paths in its own mount namespace, makes the
root read-only when asked, drops to the container's user and execs the container's command.

    python -m devcluster.runtime.init SPEC.json

SPEC: {"mounts": [{"source", "target", "read_only", "tmpfs"}], "read_only_root": bool, "uid", "gid", "groups",
"workdir", "argv", "env"}. A mount point that does not exist is created as an empty directory (an empty file for
a file's bind) before the root is made read-only: inside a tmpfs mounted here, or else on the host (the namespace
shares the host's filesystem, not a copy of it). A read-only root makes the tmpfs mounts read-only too.
"""

from __future__ import annotations

import ctypes
import json
import os
import sys
from pathlib import Path
from typing import Any

MS_RDONLY, MS_REMOUNT, MS_BIND = 1, 32, 4096
_libc = ctypes.CDLL(None, use_errno=True)


def _mount(source: str, target: str, fstype: str = "", flags: int = 0, data: str = "") -> None:
    """mount(2) itself: the kernel follows /proc/self/fd/N to the opened directory (mount(8) would resolve the
    link's text again, after earlier mounts may have hidden it)."""
    if _libc.mount(source.encode(), target.encode(), fstype.encode(), flags, data.encode()) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"mount {source} on {target}: {os.strerror(errno)}")


def prepare(spec: dict[str, Any]) -> None:
    """Mount the volumes, then make / read-only; only this namespace sees either. Every source is opened first:
    a mount over /tmp must not hide the sources that live under the host's /tmp."""
    sources = [None if mount["tmpfs"] else os.open(mount["source"], os.O_PATH) for mount in spec["mounts"]]
    for fd, mount in zip(sources, spec["mounts"], strict=True):
        target = Path(mount["target"])
        if fd is None or os.path.isdir(f"/proc/self/fd/{fd}"):
            target.mkdir(parents=True, exist_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.touch(exist_ok=True)
        if fd is None:
            _mount("tmpfs", mount["target"], "tmpfs", 0, "mode=0755")
            continue
        _mount(f"/proc/self/fd/{fd}", mount["target"], flags=MS_BIND)
        if mount["read_only"]:
            _mount("", mount["target"], flags=MS_REMOUNT | MS_BIND | MS_RDONLY)
        os.close(fd)
    if spec["read_only_root"]:
        _mount("", "/", flags=MS_REMOUNT | MS_BIND | MS_RDONLY)
        for mount in spec["mounts"]:
            if mount["tmpfs"]:
                _mount("", mount["target"], flags=MS_REMOUNT | MS_RDONLY)


def main(argv: list[str]) -> None:
    spec = json.loads(Path(argv[0]).read_text())
    prepare(spec)
    if spec.get("groups") is not None:
        os.setgroups(spec["groups"])
    if spec.get("gid") is not None:
        os.setgid(spec["gid"])
    if spec.get("uid") is not None:
        os.setuid(spec["uid"])
    os.chdir(spec["workdir"])
    os.execvpe(spec["argv"][0], spec["argv"], spec["env"])


if __name__ == "__main__":
    main(sys.argv[1:])
