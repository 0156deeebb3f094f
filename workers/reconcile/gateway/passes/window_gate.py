"""Hold a gateway's change for its cluster's maintenance window (pure: the pass's request says the verdict).

An upgrade of an installed release (``OutOfSync``) waits outside the cluster's windows and inside its freezes;
so do installs and deletes when the cluster holds them too (``hold_installs_and_deletes``). Drift repair, retries
of a failed operation and unlocking a stuck release are not new changes and are never held. A held pass sets
``MaintenanceWindow=False`` with the next start, and is queued again for then (in steps of at most
``REQUEUE_CAP_SECONDS``: a Celery countdown longer than the broker's visibility timeout is delivered twice).
"""

from __future__ import annotations

from datetime import datetime

from cluster_vocabulary.kubernetes import ConditionStatus
from controlplane.maintenance_windows import HORIZON, WindowReason
from gateways.states import ConditionType, Phase, Reason
from workers.reconcile.gateway.observation.state import State
from workers.reconcile.gateway.outcome import GatewayOutcome, WindowHold
from workers.reconcile.gateway.request import GatewayRequest

__all__ = ["REQUEUE_CAP_SECONDS", "hold", "report_not_held", "requeue_in"]

REQUEUE_CAP_SECONDS = 1800.0


def requeue_in(until: datetime, now: datetime) -> float:
    """Seconds until the next pass of a gateway waiting until ``until`` (capped)."""
    return min(max((until - now).total_seconds(), 0.0), REQUEUE_CAP_SECONDS)


def _gated(request: GatewayRequest, state: State | None) -> bool:
    """Whether this change waits for a window: upgrades always, installs and deletes (``state`` None) when the
    cluster holds them too."""
    if state is State.OUT_OF_SYNC:
        return True
    return request.window_holds_all and (state is State.ABSENT or state is None)


def hold(request: GatewayRequest, state: State | None, outcome: GatewayOutcome) -> bool:
    """Hold the change ``state`` calls for (None: the delete) when the cluster's window is closed; True if held."""
    window = request.window
    if window is None or window.open or not _gated(request, state):
        return False
    until = window.next_start or request.now + HORIZON
    change = "delete" if state is None else ("install" if state is State.ABSENT else "upgrade")
    outcome.condition(
        ConditionType.MAINTENANCE_WINDOW, ConditionStatus.FALSE, WindowReason.OUTSIDE_WINDOW, window.message
    )
    reason = Reason.DELETE_WAITING if state is None else WindowReason.OUTSIDE_WINDOW
    outcome.condition(
        ConditionType.RECONCILING,
        ConditionStatus.TRUE,
        reason,
        f"The {change} waits for the cluster's maintenance window",
    )
    outcome.window = WindowHold(until)
    outcome.failure_count, outcome.next_attempt_at = request.failure_count, until
    outcome.requeue_after = requeue_in(until, request.now)
    if state is None:
        outcome.phase = Phase.DELETING
    return True


def report_not_held(request: GatewayRequest, outcome: GatewayOutcome) -> None:
    """Nothing waits: say so, when the cluster has windows or the gateway waited before."""
    window = request.window
    if window is None:
        return
    reason = WindowReason.WINDOW_OPEN if window.open else WindowReason.NOTHING_HELD
    message = window.message if window.open else "No change waits for a maintenance window"
    outcome.condition(ConditionType.MAINTENANCE_WINDOW, ConditionStatus.TRUE, reason, message)
    outcome.window = WindowHold(None)
