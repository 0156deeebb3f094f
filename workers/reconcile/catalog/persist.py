"""Load a catalog into a request, and save one step's outcome in one transaction.

A save goes through the fenced write (``workers.reconcile.fence``): only while the pass holds its lease and
the catalog has the generation the pass started from; otherwise nothing is written and the caller starts a
fresh pass. Switching to new content takes the
content's lock and checks that the entry is still in the store, so the GC cannot race it; the
switch is recorded in the catalog's history in the same transaction.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from catalogs import history, store
from catalogs.choices import AvailabilityMode
from catalogs.cleanup import lock_content, release_after_commit
from catalogs.integrity import entry_intact
from catalogs.models import Catalog, CatalogEvent
from workers.reconcile.catalog.outcome import CatalogOutcome
from workers.reconcile.catalog.pass_io import ContentVanished
from workers.reconcile.catalog.request import CatalogRequest
from workers.reconcile.fence import locked_row
from workers.reconcile.outcome import apply_conditions

__all__ = ["load", "save"]


def load(pk: str) -> CatalogRequest | None:
    catalog = Catalog.objects.filter(pk=pk).first()
    if catalog is None:
        return None
    digest = catalog.content_digest
    return CatalogRequest(
        pk=str(catalog.pk),
        name=catalog.name,
        generation=catalog.generation,
        image_ref=catalog.image_ref,
        available=catalog.availability_mode == AvailabilityMode.AVAILABLE,
        pull_username=catalog.pull_username,
        pull_password=catalog.pull_password,
        ca=catalog.ca,
        conditions=tuple(catalog.conditions),
        observed_generation=catalog.observed_generation,
        resolved_ref=catalog.resolved_ref,
        base_url=catalog.base_url,
        last_unpacked=catalog.last_unpacked,
        content_digest=digest,
        # Checked against the store, index included: a lost, truncated or corrupt entry is unpacked again.
        content_present=bool(digest) and entry_intact(store.get(), digest),
        failure_count=catalog.failure_count,
        signature_keys=catalog.signature_keys,
        verified_keys=catalog.verified_keys,
        blocked_digest=catalog.blocked_digest,
    )


def save(request: CatalogRequest, outcome: CatalogOutcome, now: datetime, *, lease_token: str | None = None) -> bool:
    """Write the outcome while the pass holds ``lease_token`` (None: while no pass holds the catalog) and the
    catalog still has the request's generation; False if not. Its condition changes are set on the conditions the
    pass read, at ``now`` (the pass's clock)."""
    with transaction.atomic():
        if outcome.require_content:
            lock_content(outcome.require_content)
            if not store.get().has(outcome.require_content):
                raise ContentVanished(f"content {outcome.require_content} left the store before the switch")
        fence = locked_row(
            Catalog, request.pk, generation=request.generation, lease_token=lease_token, now=timezone.now()
        )
        with fence as locked:
            if locked is None or not locked.writable:
                return False
            columns = outcome.status.columns() if outcome.status is not None else {}
            conditions = apply_conditions(
                request.conditions, outcome.conditions, generation=request.generation, now=now
            )
            Catalog.objects.filter(pk=request.pk).update(
                conditions=conditions, observed_generation=request.generation, **columns
            )
        if outcome.switch:
            assert outcome.status is not None and outcome.status.last_unpacked is not None, "a switch is unpacked"
            history.record(
                request.pk,
                content_digest=outcome.status.content_digest,
                resolved_ref=outcome.status.resolved_ref,
                switched_at=outcome.status.last_unpacked,
                summary=outcome.switch.summary,
                changes=outcome.switch.changes,
            )
        for event in outcome.events:
            CatalogEvent.objects.create(
                catalog_id=request.pk, type=event.type, reason=event.reason, message=event.message[:2048]
            )
        served = outcome.status.content_digest if outcome.status is not None else None
        if outcome.release_content and outcome.release_content != served:
            release_after_commit(outcome.release_content)
    return True
