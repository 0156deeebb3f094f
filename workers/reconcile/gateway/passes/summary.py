"""Ready, derived once from what a gateway pass found, as helm-controller's ``summarize`` does (pure).

The pass records facts (a failed attempt, a stall, missing APIs, a deployed release and what it waits for); this is
the only place that turns them into the Ready condition, and, for a deployed release, into the phase, Reconciling
and the next timed pass."""

from __future__ import annotations

from cluster_vocabulary.kubernetes import ConditionStatus
from gateways.states import ConditionType, Phase, Reason
from workers.reconcile.gateway.outcome import Deployed, GatewayOutcome
from workers.reconcile.gateway.passes.phases import phase_for
from workers.reconcile.gateway.request import GatewayRequest
from workers.reconcile.outcome import ConditionChange, latest_change

__all__ = ["summarize"]


def summarize(request: GatewayRequest, outcome: GatewayOutcome) -> GatewayOutcome:
    """Set Ready on ``outcome`` from its facts, by priority: the failed attempt, a stall (unless the phase is kept on
    a gateway that was running: its workload still serves), missing APIs, then a deployed release's readiness.
    Nothing when none applies (suspended, held, busy, unreachable, deleting)."""
    if request.deleting:
        return outcome
    if outcome.failure is not None:
        # Before the Stalled and Reconciling that the failure causes.
        _ready(outcome, ConditionStatus.FALSE, outcome.failure.reason, outcome.failure.message, ConditionType.STALLED)
        return outcome
    stalled = latest_change(outcome.conditions, ConditionType.STALLED)
    if _true(stalled) and not (outcome.phase is None and request.was_running):
        assert stalled is not None
        _ready(outcome, ConditionStatus.FALSE, stalled.reason, stalled.message)
        return outcome
    missing = latest_change(outcome.conditions, ConditionType.PREREQUISITES_MISSING)
    if _true(missing):
        assert missing is not None
        _ready(outcome, ConditionStatus.FALSE, Reason.PREREQUISITES_MISSING, missing.message)
        return outcome
    if outcome.deployed is not None:
        _summarize_deployed(request, outcome, outcome.deployed)
    return outcome


def _ready(outcome: GatewayOutcome, status: str, reason: str, message: str, *before: str) -> None:
    """Set Ready before the pass's first Reconciling change (or one of ``before``), where the pass has always written
    it: a row's new conditions go last, so their order is kept."""
    ahead = {ConditionType.RECONCILING, *before}
    types = [change.type for change in outcome.conditions]
    at = next((index for index, type_ in enumerate(types) if type_ in ahead), len(types))
    outcome.conditions.insert(at, ConditionChange(ConditionType.READY, status, reason, message))


def _true(change: ConditionChange | None) -> bool:
    return change is not None and change.status == ConditionStatus.TRUE


def _summarize_deployed(request: GatewayRequest, outcome: GatewayOutcome, deployed: Deployed) -> None:
    """Running once nothing is waited for, else Provisioning or Degraded; only a provisioning gateway polls (a
    Degraded one is woken by the cluster watcher or the resync)."""
    ready = deployed.waiting is None
    outcome.phase = phase_for(
        deleting=False,
        stalled=False,
        released=True,
        ready=ready,
        was_running=request.was_running,
        deployed_at=outcome.release.last_deployed if outcome.release else None,
        now=request.now,
        grace=request.timing.ready_grace,
    )
    if deployed.waiting is None:
        detail = " and the route is accepted" if request.route_host else ""
        _ready(outcome, ConditionStatus.TRUE, Reason.SUCCEEDED, f"The workload is ready{detail}")
        outcome.condition(
            ConditionType.RECONCILING,
            ConditionStatus.FALSE,
            Reason.SUCCEEDED,
            f"Generation {request.generation} is applied",
        )
        outcome.requeue_after = None
        return
    provisioning = outcome.phase == Phase.PROVISIONING
    reason = Reason.PROGRESSING if provisioning else Reason.DEGRADED
    _ready(outcome, ConditionStatus.FALSE, reason, deployed.waiting)
    outcome.condition(
        ConditionType.RECONCILING, ConditionStatus.TRUE, Reason.PROGRESSING, f"Waiting: {deployed.waiting}"
    )
    outcome.requeue_after = deployed.provisioning_poll if provisioning else None
