"""Advance one rollout by one step, from the database alone, in one transaction.

The rollout row is locked with ``skip_locked``: one controller at a time per rollout, others skip.
A step reads the current wave's targets and their gateways, asks ``rollouts.machine.step`` what to
do, and applies it. The machine's ``Decision`` stays its own plan (``rollouts`` may not import ``workers``);
the pass reports what it did as a ``RolloutOutcome``, over the base every kind's outcome shares. Starting a target
changes only its gateway's ``release`` (and bumps the generation), with a conditional update on the row: a user's
concurrent spec change is kept, and the reconciler converges on both. Target states only move forward, so replaying
a step (a worker killed before or after the commit) never upgrades a gateway twice for one wave.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from cluster_vocabulary.kubernetes import ConditionStatus, EventType
from controlplane.dispatch import enqueue_on_commit
from controlplane.maintenance_windows import Verdict, WindowReason
from controlplane.queues import QueueName
from controlplane.tasks import TaskName
from gateways.models import Gateway, GatewayRelease
from gateways.states import ConditionType as GatewayCondition
from rollouts.choices import FailurePolicy
from rollouts.machine import Decision, GatewayObservation, RolloutView, TargetView, step
from rollouts.models import Rollout, RolloutEvent, RolloutTarget
from rollouts.states import ConditionType, Reason, RolloutPhase, TargetState
from workers import releases
from workers.reconcile.outcome import ConditionChange, apply_conditions
from workers.reconcile.rollout import wave_gate
from workers.reconcile.rollout.outcome import RolloutOutcome
from workers.reconcile.rollout.overrides import dropped_overrides

__all__ = ["active_rollout_ids", "advance"]

log = logging.getLogger(__name__)

WORKING_PHASES = (RolloutPhase.PENDING, RolloutPhase.PROGRESSING, RolloutPhase.AWAITING_APPROVAL)
# The event a target's new state is announced with.
TARGET_EVENTS = {
    TargetState.UPGRADING: Reason.UPGRADE_STARTED,
    TargetState.HEALTHY: Reason.GATEWAY_HEALTHY,
    TargetState.FAILED: Reason.GATEWAY_FAILED,
    TargetState.ROLLED_BACK: Reason.GATEWAY_ROLLED_BACK,
    TargetState.SKIPPED: Reason.GATEWAY_SKIPPED,
}


def active_rollout_ids() -> list[str]:
    return [str(pk) for pk in Rollout.objects.filter(phase__in=WORKING_PHASES).values_list("pk", flat=True)]


def _ready_message(gateway: Gateway) -> str:
    ready = next((c for c in gateway.conditions or [] if c.get("type") == GatewayCondition.READY), None)
    return str(ready.get("message", "")) if ready and ready.get("status") != ConditionStatus.TRUE else ""


def _observe(target: RolloutTarget) -> GatewayObservation:
    gateway = target.gateway
    if gateway is None:
        return GatewayObservation(exists=False)
    return GatewayObservation(
        exists=True,
        deleting=gateway.deletion_requested_at is not None,
        release_id=str(gateway.release_id) if gateway.release_id else None,
        deployed_release_id=str(gateway.deployed_release_id) if gateway.deployed_release_id else None,
        observed_generation=gateway.observed_generation,
        phase=gateway.phase,
        message=_ready_message(gateway),
    )


def _validate_target(rollout_id: str) -> None:
    """Load a Pending rollout's target chart (a pull, for oci://) and record Ready or Invalid on the release, before
    the rollout row is locked: no chart I/O runs under the lock."""
    rollout = Rollout.objects.select_related("target_release").filter(pk=rollout_id).first()
    if rollout is not None and rollout.phase == RolloutPhase.PENDING:
        releases.validate(rollout.target_release)


def _view(rollout: Rollout, gate: str) -> RolloutView:
    release = rollout.target_release
    return RolloutView(
        phase=rollout.phase,
        target_release_id=str(release.pk),
        release_status=release.rollout_status(),
        release_message=release.trust_problem() or release.message,
        current_wave=rollout.current_wave,
        wave_count=rollout.wave_count,
        max_parallel=rollout.max_parallel,
        bake=timedelta(seconds=rollout.bake_seconds),
        gate_timeout=timedelta(seconds=rollout.gate_timeout_seconds),
        rollback=rollout.failure_policy == FailurePolicy.HALT_AND_ROLLBACK,
        baking_since=rollout.baking_since,
        gate=gate,
    )


def _move_release(
    target: RolloutTarget, release_id: Any, expected: Any, now: datetime, forward: bool = True
) -> int | None:
    """Point the gateway at ``release_id`` if it is still on ``expected``; its new generation, or None. Moving
    forward also drops the image overrides the policy no longer allows."""
    dropped = dropped_overrides(target.gateway_id, release_id) if forward else {}
    moved = Gateway.objects.filter(pk=target.gateway_id, release_id=expected, deletion_requested_at__isnull=True)
    if not moved.update(
        release_id=release_id,
        generation=F("generation") + 1,
        failure_count=0,
        next_attempt_at=None,
        updated_at=now,
        **dropped,
    ):
        return None
    enqueue_on_commit(TaskName.RECONCILE_GATEWAY, target.gateway_id, queue=QueueName.PLATFORM)
    return Gateway.objects.values_list("generation", flat=True).get(pk=target.gateway_id)


def _default_release_id() -> Any:
    """A gateway without a release runs the default: a rollback returns it there."""
    default = GatewayRelease.current_default()
    return default.pk if default else None


def _apply_target(rollout: Rollout, target: RolloutTarget, state: str, reason: str, now: datetime) -> None:
    target.state, target.reason = state, reason[:1024]
    if state == TargetState.UPGRADING:
        previous = Gateway.objects.filter(pk=target.gateway_id).values_list("release_id", flat=True).first()
        target.previous_release_id, target.started_at = previous or _default_release_id(), now
        target.generation = _move_release(target, rollout.target_release_id, previous, now)
        if target.generation is None:
            target.state, target.reason = TargetState.SKIPPED, "The gateway was deleted"
    elif state == TargetState.ROLLED_BACK:
        _move_release(target, target.previous_release_id, rollout.target_release_id, now, forward=False)
        target.finished_at = now
    else:
        target.finished_at = now
    target.save(update_fields=("state", "reason", "previous_release", "started_at", "generation", "finished_at"))
    RolloutEvent.objects.create(
        rollout=rollout,
        wave=target.wave,
        gateway_name=target.gateway_name,
        type=EventType.WARNING if state in (TargetState.FAILED, TargetState.ROLLED_BACK) else EventType.NORMAL,
        reason=TARGET_EVENTS[TargetState(target.state)],
        message=target.reason or f"{target.gateway_name}: {target.state}",
    )


def _window_holds(wave: list[RolloutTarget], now: datetime) -> dict[int, str]:
    """Why each pending target's cluster may not start a change now (targets that may are left out)."""
    verdicts: dict[Any, Verdict] = {}
    holds = {}
    for target in wave:
        if target.state != TargetState.PENDING or target.gateway is None:
            continue
        cluster = target.gateway.cluster
        if cluster.pk not in verdicts:
            verdicts[cluster.pk] = cluster.window_verdict(now)
        if not verdicts[cluster.pk].open:
            holds[target.pk] = f"cluster {cluster.name}: {verdicts[cluster.pk].message}"
    return holds


def _window_condition(rollout: Rollout, decision: Decision) -> ConditionChange | None:
    """MaintenanceWindow=False while a target of the wave waits for its window; True again once none does."""
    if decision.window_wait:
        return ConditionChange(
            ConditionType.MAINTENANCE_WINDOW, ConditionStatus.FALSE, WindowReason.OUTSIDE_WINDOW, decision.window_wait
        )
    waited = any(
        c.get("type") == ConditionType.MAINTENANCE_WINDOW and c.get("status") == ConditionStatus.FALSE
        for c in rollout.conditions or []
    )
    if waited:
        return ConditionChange(
            ConditionType.MAINTENANCE_WINDOW,
            ConditionStatus.TRUE,
            WindowReason.NOTHING_HELD,
            "No target of the wave waits for a maintenance window",
        )
    return None


def _outcome(decision: Decision) -> RolloutOutcome:
    """The rollout's part of ``decision`` that every kind's pass reports: its phase and condition change (the target
    transitions and the events, which name their wave, stay the machine's)."""
    changes = [ConditionChange(*decision.condition)] if decision.condition else []
    return RolloutOutcome(phase=decision.phase, conditions=changes)


def _apply(rollout: Rollout, targets: dict[int, RolloutTarget], decision: Decision, now: datetime) -> RolloutOutcome:
    """Write ``decision``; the pass's outcome, with the rollout's phase afterwards."""
    outcome = _outcome(decision)
    window = _window_condition(rollout, decision)
    if window is not None:
        outcome.conditions.append(window)
    for transition in decision.transitions:
        _apply_target(rollout, targets[transition.target_id], transition.state, transition.reason, now)
    if outcome.phase:
        rollout.phase = outcome.phase
        if outcome.phase in (RolloutPhase.COMPLETED, RolloutPhase.HALTED):
            rollout.finished_at = now
    if decision.current_wave is not None:
        rollout.current_wave = decision.current_wave
    if decision.wave_started:
        rollout.wave_started_at = now
    if decision.baking_since is not None:
        rollout.baking_since = decision.baking_since
    if decision.clear_baking:
        rollout.baking_since = None
    rollout.conditions = apply_conditions(rollout.conditions, outcome.conditions, generation=0, now=now)
    RolloutEvent.objects.bulk_create(
        RolloutEvent(
            rollout=rollout,
            reason=reason,
            message=message[:2048],
            wave=wave,
            type=EventType.WARNING if warning else EventType.NORMAL,
        )
        for reason, message, warning, wave in decision.events
    )
    rollout.save()
    outcome.phase = rollout.phase
    return outcome


def advance(rollout_id: str, planner: wave_gate.WavePlanner | None = None) -> RolloutOutcome:
    """One step of the rollout. Its outcome's ``phase`` is the rollout's phase afterwards (None when another worker
    holds it or it is gone); a rollout that is not working is left as it is. No ``requeue_after``: the periodic
    advance comes back to every working rollout. A wave that needs approval is planned with ``planner``."""
    _validate_target(rollout_id)
    verified = wave_gate.prepare(rollout_id, planner)
    with transaction.atomic():
        rollout = (
            Rollout.objects.select_for_update(skip_locked=True)
            .select_related("target_release")
            .filter(pk=rollout_id)
            .first()
        )
        if rollout is None:
            return RolloutOutcome()
        if rollout.phase not in WORKING_PHASES:
            return RolloutOutcome(phase=rollout.phase)
        now = timezone.now()
        wave = list(rollout.targets.filter(wave=rollout.current_wave).select_related("gateway__cluster"))
        holds = _window_holds(wave, now)
        views = [
            TargetView(
                id=t.pk,
                gateway_name=t.gateway_name,
                wave=t.wave,
                state=t.state,
                gateway=_observe(t),
                started_at=t.started_at,
                generation=t.generation,
                window_hold=holds.get(t.pk),
            )
            for t in wave
        ]
        decision = step(_view(rollout, wave_gate.gate(rollout, verified)), views, now)
        outcome = _apply(rollout, {t.pk: t for t in wave}, decision, now)
        if decision.phase or decision.transitions:
            log.info(
                "rollout %s: wave %d, %d transitions, phase %s",
                rollout.name,
                rollout.current_wave,
                len(decision.transitions),
                rollout.phase,
            )
        return outcome
