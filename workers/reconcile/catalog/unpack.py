"""The unpack action: unpack the resolved image into the store (its signature verified first, under a policy),
and say what changed."""

from __future__ import annotations

from datetime import datetime

from workers.reconcile.catalog import source, step_outcomes
from workers.reconcile.catalog.outcome import CatalogOutcome
from workers.reconcile.catalog.pass_io import CatalogIo
from workers.reconcile.catalog.request import CatalogRequest

__all__ = ["run"]


def run(request: CatalogRequest, io: CatalogIo, digest: str, now: datetime) -> CatalogOutcome:
    """Content lost from the store (the same digest, not intact) is restored, and the history records no switch."""
    written = io.unpack(request, digest)
    resolved_ref, base_url = source.resolved_ref(request, digest), io.base_url(request)
    if request.restores(written):
        return step_outcomes.restored(request, resolved_ref, base_url, now)
    switch = io.describe_switch(request.content_digest if request.content_present else None, written)
    return step_outcomes.unpacked(request, resolved_ref, written, base_url, now, switch)
