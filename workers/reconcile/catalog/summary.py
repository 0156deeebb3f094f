"""Serving, a catalog's Ready, derived once from what a step found, as helm-controller's ``summarize`` does (pure)."""

from __future__ import annotations

from catalogs.states import ConditionType, Reason
from cluster_vocabulary.kubernetes import ConditionStatus
from workers.reconcile.catalog.outcome import CatalogOutcome, CatalogStatus

__all__ = ["summarize"]


def summarize(outcome: CatalogOutcome) -> CatalogOutcome:
    """Set Serving on ``outcome`` from its facts: True while content is present (the one its status names); else,
    after a failure, False saying whether content was lost from the store (its heal waits) or none was ever
    unpacked; else (no failure, nothing present: the content was dropped) False as the user asked."""
    status = outcome.status or CatalogStatus()
    if outcome.content_present:
        serving = (ConditionStatus.TRUE, Reason.AVAILABLE, f"Serving content unpacked from {status.resolved_ref}")
    elif outcome.failure is None:
        serving = (
            ConditionStatus.FALSE,
            Reason.USER_SPECIFIED_UNAVAILABLE,
            "Availability mode is Unavailable: content was dropped",
        )
    elif status.content_digest:
        message = (
            f"Content {status.content_digest} is missing from the store; unpacking it again waits: "
            f"{outcome.failure.message}"
        )
        serving = (ConditionStatus.FALSE, Reason.CONTENT_LOST, message)
    else:
        serving = (ConditionStatus.FALSE, Reason.UNAVAILABLE, "No content has been unpacked")
    outcome.condition(ConditionType.SERVING, *serving)
    return outcome
