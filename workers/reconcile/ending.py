"""How a pass that ran ended, the same for every kind: the ``result`` label of ``reconcile_passes_total`` (pure)."""

from __future__ import annotations

from controlplane.metrics import PassOutcome

__all__ = ["pass_outcome"]


def pass_outcome(*, saved: bool, failed: bool, requeue_after: float | None, unreachable: bool = False) -> PassOutcome:
    """``saved``: the outcome was written (not fenced out or stale); ``failed``: the pass counted a failure against
    the object (retried with backoff, or stalled or blocked); ``unreachable``: the cluster did not answer."""
    if not saved:
        return PassOutcome.STALE
    if unreachable:
        return PassOutcome.UNREACHABLE
    if failed:
        return PassOutcome.FAILED
    return PassOutcome.SUCCESS if requeue_after is None else PassOutcome.REQUEUED
