"""Keep the content store and the database in step: prompt removal on delete, and a GC sweep.

Both sides of every race take the same per-digest lock inside a DB transaction: the worker
when it installs an entry and points a catalog at it, and the cleaner when it checks that no
catalog references an entry before removing it. A catalog references the entry it serves and
every entry its history (``catalogs.history``) still names. So an entry is removed only if, at
that moment, no committed catalog or revision names it and no switch to it is in flight. The sweep also spares
entries younger than a grace period, so content written moments ago is never collected.
"""

from __future__ import annotations

import hashlib
import logging
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection, transaction

from catalogs import metrics, store
from catalogs.history import referenced_digests
from catalogs.models import Catalog, CatalogRevision

__all__ = [
    "SweepResult",
    "lock_content",
    "on_catalog_deleted",
    "on_revision_deleted",
    "release_after_commit",
    "remove_if_unreferenced",
    "sweep",
]

log = logging.getLogger(__name__)
STALE_SCRATCH_SECONDS = 6 * 3600


@dataclass(frozen=True)
class SweepResult:
    removed: tuple[str, ...]
    kept: int
    failures: int


def lock_content(digest: str) -> None:
    """Take the digest's lock until the current transaction ends (a PostgreSQL advisory lock).

    SQLite, used only for local development, serialises writers already and needs no lock.
    """
    if not connection.in_atomic_block:
        raise RuntimeError("lock_content must be called inside transaction.atomic()")
    if connection.vendor == "postgresql":
        key = int.from_bytes(hashlib.sha256(digest.encode()).digest()[:8], "big", signed=True)
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def remove_if_unreferenced(digest: str, *, min_age_seconds: float = 0, now: float | None = None) -> bool:
    """Remove ``digest``'s entry unless a catalog references it or it is younger than ``min_age_seconds``."""
    if not digest:
        return False
    cutoff = (time.time() if now is None else now) - min_age_seconds
    with transaction.atomic():
        lock_content(digest)
        if Catalog.objects.filter(content_digest=digest).exists():
            return False
        if CatalogRevision.objects.filter(content_digest=digest).exists():
            return False
        content = store.get()
        entry = content.stat(digest)
        if entry is None or (min_age_seconds and entry.modified > cutoff):
            return False
        content.remove(digest)
    log.info("removed unreferenced catalog content %s", digest)
    return True


def _remove_counting_failures(digest: str, **kwargs: Any) -> bool:
    try:
        return remove_if_unreferenced(digest, **kwargs)
    except Exception:
        metrics.CLEANUP_FAILURES.inc()
        log.exception("could not remove catalog content %s; the GC sweep will retry", digest)
        return False


def sweep(now: float | None = None) -> SweepResult:
    """Remove every entry no catalog or revision references, once older than ``CATALOG_GC_GRACE_SECONDS``."""
    grace = settings.CATALOG_GC_GRACE_SECONDS
    referenced = referenced_digests()
    removed, kept, failures = [], 0, 0
    content = store.get()
    try:
        stored = content.entries()
    except store.StoreError:
        metrics.CLEANUP_FAILURES.inc()
        log.exception("GC could not list catalog content; the next sweep will retry")
        return SweepResult(removed=(), kept=0, failures=1)
    for entry in stored:
        if entry.digest in referenced:
            kept += 1
            continue
        try:
            if remove_if_unreferenced(entry.digest, min_age_seconds=grace, now=now):
                removed.append(entry.digest)
            else:
                kept += 1
        except Exception:
            failures += 1
            metrics.CLEANUP_FAILURES.inc()
            log.exception("GC could not remove catalog content %s", entry.digest)
    content.remove_stale(max(grace, STALE_SCRATCH_SECONDS), now=now)
    return SweepResult(removed=tuple(removed), kept=kept, failures=failures)


def release_after_commit(digest: str) -> None:
    """Once the current transaction commits, remove ``digest``'s content if nothing references it."""
    if digest:
        transaction.on_commit(lambda: _remove_counting_failures(digest))


def on_catalog_deleted(sender: type[Catalog], instance: Catalog, **kwargs: Any) -> None:
    """post_delete receiver: a deleted catalog's content goes as soon as the delete commits."""
    release_after_commit(instance.content_digest)


def on_revision_deleted(sender: type[CatalogRevision], instance: CatalogRevision, **kwargs: Any) -> None:
    """post_delete receiver: a revision that fell out of the history (or went with its catalog) frees its content."""
    release_after_commit(instance.content_digest)
