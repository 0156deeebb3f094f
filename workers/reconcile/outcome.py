"""What one reconcile pass (or one step of it) decided, the same type for every kind: gateways, catalogs and
rollouts (pure, no Django).

A pass collects its condition changes, events and status fields here and saves them at once through the fenced
write (``workers.reconcile.fence``); conditions are applied at save time (``apply_conditions``) with the pass's
clock. The pass-level fields say how the pass ended: ``requeue_after`` (seconds until the next pass is wanted),
``failed`` (a failure was counted against the object), ``superseded`` (the spec moved on, or the lease was taken
over, so nothing was written) and ``cluster_outage`` (the cluster did not answer: open its circuit breaker).

The rollout state machine (``rollouts.machine``) keeps its own ``Decision`` as its plan: ``rollouts`` sits below
``workers`` in the layers and may not import this module; the rollout controller reports its pass as an
``Outcome``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from controlplane.conditions import Condition, set_condition
from controlplane.image_policy import DeployedImages
from workers.drivers.helm_parse import HelmReleaseStatus
from workers.reconcile.events import EventNote

__all__ = ["ConditionChange", "Outcome", "Switch", "apply_conditions"]

MAX_CONDITION_MESSAGE = 1024


@dataclass(frozen=True)
class ConditionChange:
    type: str
    status: str
    reason: str
    message: str


@dataclass(frozen=True)
class Switch:
    """A catalog's switch to new content, for its history: what changed, in one line and as a bounded diff."""

    summary: str
    changes: dict[str, Any]


@dataclass
class Outcome:
    """Every status change one pass decided, collected so it can be saved once; the kind-specific fields are
    grouped below the shared ones and left at their defaults by the other kinds."""

    phase: str | None = None
    conditions: list[ConditionChange] = field(default_factory=list)
    events: list[EventNote] = field(default_factory=list)
    fields: dict[str, Any] = field(default_factory=dict)  # status columns written as they are
    requeue_after: float | None = None
    failed: bool = False
    superseded: bool = False
    cluster_outage: str | None = None
    # Gateways: the Helm release and what it runs, and the retry bookkeeping.
    route_address: str | None = None
    release: HelmReleaseStatus | None = None
    deployed_images: DeployedImages | None = None  # from the deployed revision's values (Helm's record)
    failure_count: int | None = None
    next_attempt_at: datetime | None = None
    delete_row: bool = False
    # Catalogs: ``require_content`` must be in the store at switch time; ``release_content`` goes after commit;
    # ``switch`` is recorded in the history; ``changes`` is False when the step leaves the row as it is.
    content_present: bool = False
    require_content: str = ""
    release_content: str = ""
    switch: Switch | None = None
    changes: bool = True

    def condition(self, type_: str, status: str, reason: str, message: str) -> None:
        self.conditions.append(ConditionChange(type_, status, reason, message))

    def event(self, reason: str, message: str, warning: bool = False) -> None:
        self.events.append(EventNote.warning(reason, message) if warning else EventNote.normal(reason, message))


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
