"""Run one pass for one catalog: lease it, reconcile, and say how it ended (the same layer as gateways)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from catalogs.models import Catalog
from controlplane.metrics import PassOutcome
from workers.reconcile.catalog import loop
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
    if result.superseded:
        return PassOutcome.STALE, 0.0
    return (PassOutcome.SUCCESS, None) if result.requeue_after is None else (PassOutcome.REQUEUED, result.requeue_after)
