"""A per-object lease in the database: one reconcile pass per object at a time, across all workers.

A lease expires on its own, so a worker killed mid-pass never wedges the object.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

from django.db.models import Model, Q
from django.utils import timezone

__all__ = ["held_lease"]


@contextmanager
def held_lease(model: type[Model], pk: object, ttl: timedelta) -> Iterator[str | None]:
    """Yield a lease token when this caller won the object, else None. Releases on exit."""
    token = uuid.uuid4().hex
    now = timezone.now()
    won = model.objects.filter(pk=pk).filter(Q(lease_expires_at__isnull=True) | Q(lease_expires_at__lt=now)).update(
        lease_owner=token, lease_expires_at=now + ttl
    )
    try:
        yield token if won else None
    finally:
        if won:
            model.objects.filter(pk=pk, lease_owner=token).update(lease_owner="", lease_expires_at=None)
