"""What one catalog step (or the whole pass) decided (pure): the base's conditions, events and ending, the status
columns a step writes, typed, and what the save must do with the content store. Serving is not set by the steps:
``workers.reconcile.catalog.summary.summarize`` derives it from the step's facts."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from workers.reconcile.catalog.failures import Failure
from workers.reconcile.outcome import Outcome

__all__ = ["CatalogOutcome", "CatalogStatus", "Switch"]


@dataclass(frozen=True)
class Switch:
    """A catalog's switch to new content, for its history: what changed, in one line and as a bounded diff."""

    summary: str
    changes: dict[str, Any]


@dataclass(frozen=True)
class CatalogStatus:
    """The status columns a step writes, all of them at once; the defaults are no content and no failure."""

    resolved_ref: str = ""
    base_url: str = ""
    last_unpacked: datetime | None = None
    content_digest: str = ""
    verified_keys: str = ""
    failure_count: int = 0
    next_attempt_at: datetime | None = None
    blocked_digest: str = ""

    def columns(self) -> dict[str, Any]:
        """The columns by name, as ``Catalog.objects.update`` takes them."""
        return asdict(self)


@dataclass
class CatalogOutcome(Outcome):
    """A step's outcome, saved by ``persist.save``, or (with ``status`` None) how the pass ended.

    ``require_content`` must be in the store at switch time; ``release_content`` goes after commit; ``switch`` is
    recorded in the history; ``changes`` is False when the step leaves the row as it is; ``superseded``: the spec
    moved on, or the lease was taken over, so nothing was written. ``content_present`` and ``failure`` (the step's
    failure) are the facts ``summarize`` derives Serving from."""

    status: CatalogStatus | None = None
    content_present: bool = False
    failure: Failure | None = None
    require_content: str = ""
    release_content: str = ""
    switch: Switch | None = None
    changes: bool = True
    superseded: bool = False
