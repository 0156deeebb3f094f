"""Catalog tasks: reconcile one catalog, poll the due ones, and collect unreferenced content."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from celery import shared_task
from celery.signals import worker_ready
from django.utils import timezone

from catalogs import cleanup
from catalogs.models import Catalog
from controlplane.metrics import PassOutcome, timed_pass
from workers.reconcile.catalog import loop, polling
from workers.reconcile.lease import held_lease

__all__ = ["gc_catalog_content", "poll_catalogs", "reconcile_catalog"]

log = logging.getLogger(__name__)

# A pull and unpack of a large catalog can take minutes; a killed worker's lease lapses after this.
LEASE = timedelta(minutes=30)


@shared_task(name="workers.tasks.reconcile_catalog", ignore_result=True)
def reconcile_catalog(catalog_id: str, attempt: int = 0) -> None:
    with timed_pass("catalog") as pass_, held_lease(Catalog, catalog_id, LEASE) as held:
        if held is None:
            log.info("catalog %s: another pass holds the lease; it will pick up any change", catalog_id)
            pass_.result = PassOutcome.SKIPPED
            return
        result = loop.reconcile(catalog_id, now=timezone.now(), attempt=attempt)
        pass_.result = _outcome(result)
    if result.superseded:
        reconcile_catalog.delay(catalog_id)
    elif result.requeue_after is not None:
        reconcile_catalog.apply_async((catalog_id,), {"attempt": attempt + 1}, countdown=result.requeue_after)


def _outcome(result: loop.PassResult) -> PassOutcome:
    if result.superseded:
        return PassOutcome.STALE
    return PassOutcome.SUCCESS if result.requeue_after is None else PassOutcome.REQUEUED


@shared_task(name="workers.tasks.poll_catalogs", ignore_result=True)
def poll_catalogs() -> None:
    for catalog_id in polling.due_catalog_ids():
        reconcile_catalog.delay(catalog_id)


@shared_task(name="workers.tasks.gc_catalog_content", ignore_result=True)
def gc_catalog_content() -> None:
    result = cleanup.sweep()
    log.info("catalog GC: removed %d, kept %d, failed %d", len(result.removed), result.kept, result.failures)


@worker_ready.connect
def sweep_at_startup(**_: Any) -> None:
    """Collect what a previous run left behind, before taking work."""
    try:
        gc_catalog_content()
    except Exception:
        log.exception("catalog GC at worker startup failed; the periodic sweep will retry")
