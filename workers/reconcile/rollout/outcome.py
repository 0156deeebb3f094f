"""What one rollout step reported (pure): the base's conditions and events, and the rollout's phase afterwards.

The rollout has no Ready condition to summarize: its phase is the state machine's (``rollouts.machine``), whose
``Decision`` is the plan this outcome reports."""

from __future__ import annotations

from dataclasses import dataclass

from workers.reconcile.outcome import Outcome

__all__ = ["RolloutOutcome"]


@dataclass
class RolloutOutcome(Outcome):
    """``phase`` is the rollout's phase after the step (None when another worker holds it)."""

    phase: str | None = None
