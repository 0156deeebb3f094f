"""A per-object lease in the database: one reconcile pass per object at a time, across all workers.

A lease expires on its own, so a worker killed mid-pass never wedges the object. While a pass runs,
a background thread renews the lease, so a pass may outlive the lease duration (a long helm call)
without a second worker taking the object. The token fences writes: a pass publishes only while
the row still names its token (see ``publish``).

A pass that ends in a transient database error (lock contention) still releases its lease: the release
tries again a few times, so the task's retry finds the object free instead of waiting out the lease.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta

from django.db import OperationalError, connection, transaction
from django.db.models import Model, Q
from django.utils import timezone

from workers.reconcile.transient import is_transient

__all__ = ["Lease", "held_lease"]

log = logging.getLogger(__name__)

# Renew when a third of the lease has passed, so two renewals may fail before the lease lapses.
RENEW_FRACTION = 3
# Releasing under lock contention: attempts, and the pause before the next (doubling).
RELEASE_ATTEMPTS = 4
RELEASE_PAUSE_SECONDS = 0.25


@dataclass
class Lease:
    """A won lease: its token, and whether a renewal found it taken over."""

    model: type[Model]
    pk: object
    token: str
    ttl: timedelta
    lost: bool = False
    _stop: threading.Event = field(default_factory=threading.Event, repr=False)

    def renew(self) -> bool:
        """Push the expiry forward; False (and ``lost``) when the row no longer names our token."""
        renewed = self.model.objects.filter(pk=self.pk, lease_owner=self.token).update(
            lease_expires_at=timezone.now() + self.ttl
        )
        self.lost = self.lost or not renewed
        return bool(renewed)

    def _renew_until_stopped(self) -> None:
        interval = self.ttl.total_seconds() / RENEW_FRACTION
        try:
            while not self._stop.wait(interval):
                try:
                    renewed = self.renew()
                except OperationalError as exc:
                    if not is_transient(exc):
                        raise
                    log.warning("renewing the lease on %s %s met %s; trying again", self.model.__name__, self.pk, exc)
                    continue
                if not renewed:
                    log.warning("lease on %s %s was taken over; this pass cannot publish", self.model.__name__, self.pk)
                    return
        except Exception:
            log.exception("renewing the lease on %s %s failed", self.model.__name__, self.pk)
        finally:
            connection.close()  # this thread's own database connection


def _take(model: type[Model], pk: object, token: str, ttl: timedelta) -> bool:
    now = timezone.now()
    free = Q(lease_expires_at__isnull=True) | Q(lease_expires_at__lt=now)
    return bool(model.objects.filter(pk=pk).filter(free).update(lease_owner=token, lease_expires_at=now + ttl))


def _release(model: type[Model], pk: object, token: str) -> None:
    """Free the object if it still names ``token``, trying again through transient lock contention."""
    for attempt in range(RELEASE_ATTEMPTS):
        try:
            model.objects.filter(pk=pk, lease_owner=token).update(lease_owner="", lease_expires_at=None)
            return
        except OperationalError as exc:
            if not is_transient(exc) or attempt == RELEASE_ATTEMPTS - 1:
                raise
            time.sleep(RELEASE_PAUSE_SECONDS * 2**attempt)


@contextmanager
def held_lease(
    model: type[Model], pk: object, ttl: timedelta, admit: Callable[[], bool] | None = None
) -> Iterator[Lease | None]:
    """Yield a renewed ``Lease`` when this caller won the object, else None. Releases on exit.

    ``admit`` runs in the same transaction just before the lease is taken; returning False declines
    (the per-cluster slot check uses it).
    """
    token = uuid.uuid4().hex
    with transaction.atomic():
        won = (admit is None or admit()) and _take(model, pk, token, ttl)
    if not won:
        yield None
        return
    lease = Lease(model=model, pk=pk, token=token, ttl=ttl)
    renewer = threading.Thread(target=lease._renew_until_stopped, name=f"lease-{pk}", daemon=True)
    renewer.start()
    try:
        yield lease
    finally:
        lease._stop.set()
        renewer.join()
        _release(model, pk, token)
