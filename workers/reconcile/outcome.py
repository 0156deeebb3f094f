"""The base every kind's outcome shares (pure, no Django): the condition changes and events one pass (or one step of
it) decided, and how it ended. Each kind owns its outcome over this base, with its status columns as typed fields:
``GatewayOutcome`` (``workers.reconcile.gateway.outcome``), ``CatalogOutcome`` (``workers.reconcile.catalog.outcome``)
and ``RolloutOutcome`` (``workers.reconcile.rollout.outcome``).

A pass collects its changes in its outcome and saves them at once through the fenced write
(``workers.reconcile.fence``); conditions are applied at save time (``apply_conditions``) with the pass's clock.
``requeue_after`` is the seconds until the next pass is wanted; ``failed`` says a failure was counted against the
object. Ready (a catalog's Serving) is never set here: each kind derives it in its one ``summarize``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from controlplane.conditions import Condition, set_condition
from workers.reconcile.events import EventNote

__all__ = ["ConditionChange", "Outcome", "apply_conditions", "latest_change"]

MAX_CONDITION_MESSAGE = 1024


@dataclass(frozen=True)
class ConditionChange:
    type: str
    status: str
    reason: str
    message: str


@dataclass
class Outcome:
    """The condition changes, events and ending every kind's pass reports; each kind's outcome adds its own fields."""

    conditions: list[ConditionChange] = field(default_factory=list)
    events: list[EventNote] = field(default_factory=list)
    requeue_after: float | None = None
    failed: bool = False

    def condition(self, type_: str, status: str, reason: str, message: str) -> None:
        self.conditions.append(ConditionChange(type_, status, reason, message))

    def event(self, reason: str, message: str, warning: bool = False) -> None:
        self.events.append(EventNote.warning(reason, message) if warning else EventNote.normal(reason, message))


def latest_change(changes: Iterable[ConditionChange], type_: str) -> ConditionChange | None:
    """The last change of condition ``type_`` among ``changes`` (the one a save leaves), or None."""
    return next((change for change in reversed(list(changes)) if change.type == type_), None)


def apply_conditions(
    conditions: Iterable[Condition], changes: Iterable[ConditionChange], *, generation: int, now: datetime
) -> list[Condition]:
    """``conditions`` with ``changes`` set in order (messages bounded); equal to ``conditions`` when nothing moved."""
    applied = list(conditions)
    for change in changes:
        applied = set_condition(
            applied,
            type_=change.type,
            status=change.status,
            reason=change.reason,
            message=change.message[:MAX_CONDITION_MESSAGE],
            generation=generation,
            now=now,
        )
    return applied
