"""Run one pass for one catalog: lease it, reconcile, and say how it ended (the same layer as gateways)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from catalogs.models import Catalog
from controlplane.metrics import PassOutcome
from workers.reconcile.catalog import loop
from workers.reconcile.ending import pass_outcome
from workers.reconcile.lease import held_lease

__all__ = ["LEASE", "run_pass"]

# A pull and unpack of a large catalog can take minutes; the lease is renewed while the pass runs,
# and a killed worker's lease lapses after this.
LEASE = timedelta(minutes=5)


def run_pass(catalog_id: str) -> tuple[PassOutcome, float | None]:
    """Reconcile once: how the pass ended, and the seconds until the next one is wanted (None: not wanted).

    A superseded pass (the spec moved on) asks for an immediate pass; another pass holding the lease
    will pick up any change itself."""
    with held_lease(Catalog, catalog_id, LEASE) as lease:
        if lease is None:
            return PassOutcome.SKIPPED, None
        result = loop.reconcile(catalog_id, now=timezone.now(), lease_token=lease.token)
    ended = pass_outcome(saved=not result.superseded, failed=result.failed, requeue_after=result.requeue_after)
    return ended, 0.0 if result.superseded else result.requeue_after
