"""What one pass decided: every status change, collected so it can be saved once."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from controlplane.image_policy import DeployedImages
from workers.drivers.helm_parse import ReleaseStatus
from workers.reconcile.events import EventNote

__all__ = ["ConditionChange", "PassResult"]


@dataclass(frozen=True)
class ConditionChange:
    type: str
    status: str
    reason: str
    message: str


@dataclass
class PassResult:
    phase: str | None = None
    conditions: list[ConditionChange] = field(default_factory=list)
    events: list[EventNote] = field(default_factory=list)
    route_address: str | None = None
    release: ReleaseStatus | None = None
    deployed_images: DeployedImages | None = None  # from the deployed revision's values (Helm's record)
    failure_count: int | None = None
    next_attempt_at: datetime | None = None
    requeue_after: float | None = None
    delete_row: bool = False
    cluster_outage: str | None = None  # set when the cluster did not answer: open its circuit breaker

    def condition(self, type_: str, status: str, reason: str, message: str) -> None:
        self.conditions.append(ConditionChange(type_, status, reason, message))

    def event(self, reason: str, message: str, warning: bool = False) -> None:
        self.events.append(EventNote.warning(reason, message) if warning else EventNote.normal(reason, message))
