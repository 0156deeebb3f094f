"""The verify action: the content served is what the ref names, but was not verified with the policy keys; check
its signature without pulling it again."""

from __future__ import annotations

from datetime import datetime

from workers.reconcile.catalog import step_outcomes
from workers.reconcile.catalog.outcome import CatalogOutcome
from workers.reconcile.catalog.pass_io import CatalogIo
from workers.reconcile.catalog.request import CatalogRequest

__all__ = ["run"]


def run(request: CatalogRequest, io: CatalogIo, digest: str, now: datetime) -> CatalogOutcome:
    io.verify(request, digest)
    return step_outcomes.verified(request, now)
