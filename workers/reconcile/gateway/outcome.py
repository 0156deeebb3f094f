"""What one gateway pass (or one Helm action of it) decided (pure): the base's conditions, events and ending, and
the gateway's own status columns, typed. Ready and, for a deployed release, the phase are not set by the pass: they
are derived from its facts (``failure``, ``deployed`` and the Stalled and PrerequisitesMissing changes) by
``workers.reconcile.gateway.passes.summary.summarize``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from controlplane.image_policy import DeployedImages
from workers.drivers.helm_parse import HelmReleaseStatus
from workers.reconcile.outcome import Outcome

__all__ = ["Deployed", "FailedAttempt", "GatewayOutcome", "WindowHold"]


@dataclass(frozen=True)
class FailedAttempt:
    """The attempt this pass made that failed: its reason (``<Step>Failed``) and the message."""

    reason: str
    message: str


@dataclass(frozen=True)
class Deployed:
    """A deployed, current release: what it still waits for before it is Ready (None: nothing), and the seconds
    until the next timed pass while it is provisioning."""

    waiting: str | None
    provisioning_poll: float


@dataclass(frozen=True)
class WindowHold:
    """The ``window_held_until`` column: when the change held for the maintenance window may go (None: none held)."""

    until: datetime | None


@dataclass
class GatewayOutcome(Outcome):
    """Every status change one gateway pass decided, saved once by ``publish``. A field left None is not written.

    ``cluster_outage`` (the cluster did not answer) asks the caller to open the cluster's circuit breaker;
    ``delete_row`` ends a finished deletion."""

    phase: str | None = None
    cluster_outage: str | None = None
    route_address: str | None = None
    release: HelmReleaseStatus | None = None
    deployed_images: DeployedImages | None = None  # from the deployed revision's values (Helm's record)
    failure_count: int | None = None
    next_attempt_at: datetime | None = None
    window: WindowHold | None = None
    delete_row: bool = False
    # Facts ``summarize`` derives Ready from.
    failure: FailedAttempt | None = None
    deployed: Deployed | None = None

    def merge(self, step: GatewayOutcome) -> GatewayOutcome:
        """This outcome followed by an action's: its conditions and events after ours, its release and retry
        bookkeeping when it set them."""
        self.conditions.extend(step.conditions)
        self.events.extend(step.events)
        if step.release is not None:
            self.release = step.release
        if step.failure_count is not None:
            self.failure_count, self.next_attempt_at = step.failure_count, step.next_attempt_at
        return self
