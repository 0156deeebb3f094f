"""Catalog tasks: reconcile one catalog, poll the due ones, and collect unreferenced content (and notice served
content gone from the store, so it is unpacked again even if nobody reads it)."""

from __future__ import annotations

import logging
from typing import Any

from celery import Task, shared_task
from celery.signals import worker_ready

from catalogs import cleanup, lost_content
from controlplane.metrics import timed_pass
from controlplane.tasks import TaskName
from workers.reconcile.catalog import polling
from workers.reconcile.catalog.run import run_pass
from workers.tasks.transient import retried_when_transient

__all__ = ["gc_catalog_content", "poll_catalogs", "reconcile_catalog"]

log = logging.getLogger(__name__)


@shared_task(bind=True, name=TaskName.RECONCILE_CATALOG, ignore_result=True)
def reconcile_catalog(self: Task, catalog_id: str) -> None:
    with retried_when_transient(self), timed_pass("catalog") as pass_:
        pass_.result, requeue_after = run_pass(catalog_id)
    if requeue_after is not None:
        reconcile_catalog.apply_async((catalog_id,), countdown=requeue_after)


@shared_task(name=TaskName.POLL_CATALOGS, ignore_result=True)
def poll_catalogs() -> None:
    for catalog_id in polling.due_catalog_ids():
        reconcile_catalog.delay(catalog_id)


@shared_task(name=TaskName.GC_CATALOG_CONTENT, ignore_result=True)
def gc_catalog_content() -> None:
    result = cleanup.sweep()
    log.info("catalog GC: removed %d, kept %d, failed %d", len(result.removed), result.kept, result.failures)
    lost = lost_content.sweep_served()
    if lost:
        log.warning("catalog GC: %d catalogs lost their served content; queued to unpack it again", lost)


@worker_ready.connect
def sweep_at_startup(**_: Any) -> None:
    """Collect what a previous run left behind, before taking work."""
    try:
        gc_catalog_content()
    except Exception:
        log.exception("catalog GC at worker startup failed; the periodic sweep will retry")
