"""One reconcile pass: observe, choose an action, run it, save its outcome; never the same action twice.

The pass talks to the database, the registry and the store through ``CatalogIo`` only (``StoreIo`` for real)."""

from __future__ import annotations

import logging
import random
from datetime import datetime
from typing import Protocol

from workers.drivers.errors import DriverError
from workers.reconcile.catalog import drop, step_outcomes, unpack, verify
from workers.reconcile.catalog.failures import TERMINAL, classify, retry_delay
from workers.reconcile.catalog.outcome import CatalogOutcome
from workers.reconcile.catalog.pass_io import CatalogIo, ContentVanished
from workers.reconcile.catalog.request import CatalogRequest
from workers.reconcile.catalog.state import CatalogState, determine_state
from workers.reconcile.catalog.store_io import StoreIo

__all__ = ["CatalogAction", "reconcile", "run"]

log = logging.getLogger(__name__)


class CatalogAction(Protocol):
    """The one interface of the catalog's actions (``drop``, ``verify``, ``unpack``): ``run(request, io, digest,
    now)``, where ``digest`` is the manifest digest the ref resolved to ('' when not resolved); the step's outcome,
    saved before the pass goes on."""

    def __call__(self, request: CatalogRequest, io: CatalogIo, digest: str, now: datetime) -> CatalogOutcome: ...


ACTIONS: dict[CatalogState, CatalogAction] = {
    CatalogState.USER_UNAVAILABLE: drop.run,
    CatalogState.UNVERIFIED: verify.run,
    CatalogState.OUT_OF_SYNC: unpack.run,
}


def reconcile(pk: str, *, now: datetime, lease_token: str | None = None) -> CatalogOutcome:
    """Run one pass for catalog ``pk`` against the database, the registry and the store, its saves fenced by
    ``lease_token`` (None: no pass may hold the catalog)."""
    return run(pk, StoreIo(lease_token), now=now)


def run(pk: str, io: CatalogIo, *, now: datetime) -> CatalogOutcome:
    """Run one pass for catalog ``pk``; the consecutive failures so far are on the row. The pass reports how it
    ended: ``requeue_after`` (seconds) asks for a retry; ``superseded``: the spec changed mid-pass (or the lease was
    taken over); ``failed``: the pass counted a failure (retried, or blocked when terminal). Each step's own
    ``CatalogOutcome`` is saved as it goes."""
    request = io.load(pk)
    done: set[CatalogState] = set()
    resolved: str | None = None
    while request is not None:
        try:
            if request.available and resolved is None:
                resolved = io.resolve(request)
            state = determine_state(request, resolved)
            if state is CatalogState.IN_SYNC:
                summary = step_outcomes.in_sync(request, now)
                return CatalogOutcome(superseded=summary.changes and not io.save(request, summary, now))
            if state is CatalogState.BLOCKED or state in done:  # blocked: the status already says why; nothing to write
                return CatalogOutcome()
            done.add(state)
            step = ACTIONS[state](request, io, resolved or "", now)
            if not step.changes:
                return CatalogOutcome()
            if not io.save(request, step, now):
                return CatalogOutcome(superseded=True)
            request = request.after(step, now)
        except Exception as exc:
            return _fail(request, io, exc, now, resolved)
    return CatalogOutcome()


def _fail(request: CatalogRequest, io: CatalogIo, exc: Exception, now: datetime, digest: str | None) -> CatalogOutcome:
    """Record the failure (old content keeps being served) and ask for a retry unless it is terminal.

    A terminal failure blocks on ``digest`` (the digest the pass was pulling)."""
    failure = classify(exc, request.secrets)
    expected = isinstance(exc, (*TERMINAL, DriverError, ContentVanished))
    log.warning("catalog %s: %s", request.name, failure.message, exc_info=not expected)
    delay = retry_delay(failure, request.failure_count + 1, random.random())
    step = step_outcomes.failed(request, failure, now, now + delay if delay is not None else None, digest)
    saved = io.save(request, step, now)
    requeue_after = delay.total_seconds() if delay is not None else None
    return CatalogOutcome(requeue_after=requeue_after, superseded=not saved, failed=True)
