"""One cluster's share of a worker's pool slots, so a slow cluster's passes leave slots to the others.

A Celery worker of C pool slots lets the passes of one cluster hold at most `share_of(C, percent)` of them
(GATEWAY_CLUSTER_POOL_PERCENT). The share's slots are lock files, one directory per worker and cluster: a
pass holds an exclusive `flock` on one while it runs, so the worker's prefork children count together, and a
child killed mid-pass frees its slot with its file descriptors. A pass that finds every slot held does not
wait: it gives its pool slot back and asks to run again later.
"""

from __future__ import annotations

import fcntl
import logging
import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from celery.signals import celeryd_after_setup

__all__ = ["PoolShare", "cluster_share", "share_of"]

log = logging.getLogger(__name__)

ROOT = Path(tempfile.gettempdir()) / "controlplane-pool-share"


def share_of(slots: int, percent: int) -> int:
    """How many of a pool's `slots` one cluster may hold: `percent` of them, rounded down, at least one."""
    return max(1, slots * percent // 100)


@dataclass(frozen=True)
class PoolShare:
    """The pool slots of one worker (`slots`), shared out per cluster through lock files under `directory`."""

    directory: Path
    slots: int

    @contextmanager
    def hold(self, cluster: str, percent: int) -> Iterator[bool]:
        """True while this process holds one of the cluster's share of the slots, False when all are held.
        A share as large as the pool reserves nothing: then always True, with no lock taken."""
        share = share_of(self.slots, percent)
        if share >= self.slots:
            yield True
            return
        folder = self.directory / _safe(cluster)
        folder.mkdir(parents=True, exist_ok=True)
        for index in range(share):
            fd = os.open(folder / f"{index}.lock", os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            try:
                yield True
            finally:
                os.close(fd)  # closing the last descriptor releases the lock
            return
        yield False


# This process's worker, set when the worker starts (before its pool forks): None outside a worker.
_worker: PoolShare | None = None


@celeryd_after_setup.connect
def _worker_started(sender: str, instance: Any, **_: Any) -> None:
    global _worker
    _worker = PoolShare(ROOT / _safe(sender), int(instance.concurrency))
    log.info("worker %s: %d pool slots, shared out per cluster under %s", sender, _worker.slots, _worker.directory)


@contextmanager
def cluster_share(cluster: str, percent: int) -> Iterator[bool]:
    """`PoolShare.hold` on this process's worker; outside a worker (tests, shells) always True."""
    if _worker is None:
        yield True
        return
    with _worker.hold(cluster, percent) as held:
        yield held


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)
