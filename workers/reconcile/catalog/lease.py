"""One reconcile pass per catalog at a time, across all workers: a Redis lock keyed by the catalog id.

A DB row lock would have to stay open for the whole pull; a Redis lock expires on its own, so a
worker killed mid-pass never wedges the catalog. Saves are conditional on the generation anyway,
so the lock only saves duplicate work and never guards correctness alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import redis
from django.conf import settings

__all__ = ["catalog_lease"]

LEASE_SECONDS = 30 * 60


@contextmanager
def catalog_lease(pk: str) -> Iterator[bool]:
    """Yield True when this caller holds the catalog's lease, False when another pass does."""
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    lock = client.lock(f"catalogs:reconcile:{pk}", timeout=LEASE_SECONDS, blocking=False)
    held = lock.acquire()
    try:
        yield held
    finally:
        if held:
            lock.release()
        client.close()
