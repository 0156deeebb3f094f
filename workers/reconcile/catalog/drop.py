"""The drop action: availability mode is Unavailable, so nothing is served (the content goes once unreferenced)."""

from __future__ import annotations

from datetime import datetime

from workers.reconcile.catalog import step_outcomes
from workers.reconcile.catalog.outcome import CatalogOutcome
from workers.reconcile.catalog.pass_io import CatalogIo
from workers.reconcile.catalog.request import CatalogRequest

__all__ = ["run"]


def run(request: CatalogRequest, io: CatalogIo, digest: str, now: datetime) -> CatalogOutcome:
    return step_outcomes.dropped(request, now)
