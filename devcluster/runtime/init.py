"""A container's first process: run by the supervisor under `unshare -m --propagation private`, it bind-mounts
the container's volumes (and the image's files) at their container paths in its own mount namespace, makes the
root read-only when asked, drops to the container's user and execs the container's command.

    python -m devcluster.runtime.init SPEC.json

SPEC: {"mounts": [{"source", "target", "read_only"}], "read_only_root": bool, "uid", "gid", "groups",
"workdir", "argv", "env"}. A mount point that does not exist is created on the host as an empty directory
before the root is made read-only (the namespace shares the host's filesystem, not a copy of it).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def _mount(*args: str, fds: tuple[int, ...] = ()) -> None:
    subprocess.run(["mount", *args], check=True, pass_fds=fds)


def prepare(spec: dict[str, Any]) -> None:
    """Mount the volumes, then make / read-only; only this namespace sees either. Every source is opened first:
    a mount over /tmp must not hide the sources that live under the host's /tmp."""
    sources = [os.open(mount["source"], os.O_PATH) for mount in spec["mounts"]]
    for fd, mount in zip(sources, spec["mounts"], strict=True):
        Path(mount["target"]).mkdir(parents=True, exist_ok=True)
        _mount("--bind", f"/proc/self/fd/{fd}", mount["target"], fds=(fd,))
        if mount["read_only"]:
            _mount("-o", "remount,bind,ro", mount["target"])
        os.close(fd)
    if spec["read_only_root"]:
        _mount("-o", "remount,bind,ro", "/")


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
