"""The rollout state machine (pure: no Django, no I/O; the caller supplies the clock).

``step(rollout, targets, now)`` looks at the rollout and the gateways of its current wave and says
what to do next; the controller applies the decision in one transaction and never applies one twice.

Per target: ``pending -> upgrading -> healthy``, or ``-> failed`` (the gateway went Failed, or was not
Ready within the gate timeout), then ``-> rolled_back`` under ``halt_and_rollback``; ``-> skipped``
when its gateway is deleted. A target is healthy once its gateway runs the target release, has
converged on the generation the release change gave it (or a later one: a user's spec change during
the rollout counts), and is Running.

Per rollout: ``Pending`` (the target release is not validated yet) -> ``Progressing``: at most
``max_parallel`` targets of the current wave upgrade at once; once every one is healthy or skipped
the wave bakes for ``bake_seconds``, then the next wave starts; after the last, ``Completed``. A target whose
cluster's maintenance window is closed (``window_hold``) is not started: the wave waits for it, and the targets
already started finish. The
first failed target halts the rollout (``Halted``); no further gateway is started. A wave that needs
approval starts no gateway while its gate (``rollouts.approval.Gate``) is not open: the rollout is
``AwaitingApproval`` until it is, and upgrades under way go on being judged. ``Paused``,
``Halted``, ``Completed`` and ``Aborted`` decide nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from cluster_vocabulary.kubernetes import ConditionStatus
from gateways.states import Phase as GatewayPhase
from gateways.states import ReleaseStatus
from rollouts.approval import Gate
from rollouts.states import ConditionType, Reason, RolloutPhase, TargetState

__all__ = ["Decision", "GatewayObservation", "RolloutView", "TargetView", "Transition", "step"]

SETTLED = (TargetState.HEALTHY, TargetState.SKIPPED)
NAMES_IN_MESSAGE = 10


@dataclass(frozen=True)
class GatewayObservation:
    """What the controller sees of a target's gateway; ``exists=False`` once its row is gone."""

    exists: bool
    deleting: bool = False
    release_id: str | None = None
    deployed_release_id: str | None = None
    observed_generation: int = 0
    phase: str = ""
    message: str = ""


@dataclass(frozen=True)
class TargetView:
    id: int
    gateway_name: str
    wave: int
    state: str
    gateway: GatewayObservation
    started_at: datetime | None = None
    generation: int | None = None
    # Why its cluster's maintenance window does not let it start now (None: it may start).
    window_hold: str | None = None


@dataclass(frozen=True)
class RolloutView:
    phase: str
    target_release_id: str
    release_status: str  # Pending, Ready or Invalid
    release_message: str
    current_wave: int
    wave_count: int
    max_parallel: int
    bake: timedelta
    gate_timeout: timedelta
    rollback: bool
    baking_since: datetime | None = None
    gate: str = Gate.OPEN


@dataclass(frozen=True)
class Transition:
    target_id: int
    state: str
    reason: str = ""


@dataclass
class Decision:
    """What to apply: target transitions (``upgrading`` means: set the target release; ``rolled_back``: set the
    previous one back), the rollout's new fields, a condition, and events (reason, message, warning, wave).

    This is the machine's plan, not a pass's result: the controller (``workers.reconcile.rollout``) applies it and
    reports the pass as a ``RolloutOutcome``, which ``rollouts`` may not import (the layers put
    ``workers`` above ``rollouts``)."""

    transitions: list[Transition] = field(default_factory=list)
    phase: str | None = None
    current_wave: int | None = None
    wave_started: bool = False
    baking_since: datetime | None = None
    clear_baking: bool = False
    condition: tuple[str, str, str, str] | None = None  # type, status, reason, message
    events: list[tuple[str, str, bool, int | None]] = field(default_factory=list)
    # A pending target of the wave waits for its cluster's maintenance window: the first one's reason.
    window_wait: str | None = None

    def event(self, reason: str, message: str, *, warning: bool = False, wave: int | None = None) -> None:
        self.events.append((reason, message, warning, wave))


def _healthy(target: TargetView, release_id: str) -> bool:
    gateway = target.gateway
    return (
        gateway.release_id == release_id
        and gateway.deployed_release_id == release_id
        and gateway.observed_generation >= (target.generation or 0)
        and gateway.phase == GatewayPhase.RUNNING
    )


def _judge(target: TargetView, rollout: RolloutView, now: datetime) -> Transition | None:
    """The transition an observed target takes on its own, if any."""
    gateway = target.gateway
    if target.state not in (TargetState.PENDING, TargetState.UPGRADING):
        return None
    if not gateway.exists or gateway.deleting:
        return Transition(target.id, TargetState.SKIPPED, "The gateway was deleted")
    if target.state == TargetState.PENDING:
        return None
    if _healthy(target, rollout.target_release_id):
        return Transition(target.id, TargetState.HEALTHY)
    converged = gateway.observed_generation >= (target.generation or 0)
    if converged and gateway.phase == GatewayPhase.FAILED:
        return Transition(target.id, TargetState.FAILED, gateway.message or "The gateway is Failed")
    if target.started_at is not None and now - target.started_at > rollout.gate_timeout:
        seconds = int(rollout.gate_timeout.total_seconds())
        detail = f" ({gateway.phase}: {gateway.message})" if gateway.message else f" ({gateway.phase})"
        return Transition(target.id, TargetState.FAILED, f"Not Ready within {seconds}s{detail}")
    return None


def _names(names: list[str]) -> str:
    shown = ", ".join(names[:NAMES_IN_MESSAGE])
    return shown + (f" and {len(names) - NAMES_IN_MESSAGE} more" if len(names) > NAMES_IN_MESSAGE else "")


def _halt(decision: Decision, rollout: RolloutView, wave: list[TargetView], failed: dict[int, str]) -> None:
    names = [t.gateway_name for t in wave if t.id in failed]
    message = f"Wave {rollout.current_wave} failed its health gate: " + "; ".join(
        f"{t.gateway_name}: {failed[t.id]}" for t in wave if t.id in failed
    )
    decision.phase = RolloutPhase.HALTED
    decision.condition = (ConditionType.HALTED, ConditionStatus.TRUE, Reason.GATE_FAILED, message[:1024])
    decision.event(Reason.GATE_FAILED, message, warning=True, wave=rollout.current_wave)
    if rollout.rollback:
        upgraded = [t for t in wave if t.state in (TargetState.UPGRADING, TargetState.HEALTHY) or t.id in failed]
        for target in upgraded:
            if target.gateway.exists and not target.gateway.deleting:
                reason = failed.get(target.id, "Wave rolled back")
                decision.transitions.append(Transition(target.id, TargetState.ROLLED_BACK, reason))
        rolled = [t.gateway_name for t in upgraded if t.gateway.exists and not t.gateway.deleting]
        decision.event(
            Reason.ROLLED_BACK,
            f"Rolled back to their previous release: {_names(rolled)}",
            warning=True,
            wave=rollout.current_wave,
        )
    else:
        decision.event(Reason.HALTED, f"Left as they are: {_names(names)}", warning=True, wave=rollout.current_wave)


def _start(rollout: RolloutView) -> Decision:
    decision = Decision()
    if rollout.release_status == ReleaseStatus.INVALID:
        message = f"The target release is Invalid: {rollout.release_message}"
        decision.phase = RolloutPhase.HALTED
        decision.condition = (ConditionType.HALTED, ConditionStatus.TRUE, Reason.RELEASE_INVALID, message[:1024])
        decision.event(Reason.RELEASE_INVALID, message, warning=True)
    elif rollout.release_status == ReleaseStatus.READY:
        decision.phase, decision.current_wave, decision.wave_started = RolloutPhase.PROGRESSING, 0, True
        started = "Wave 0 (canary) started"
        decision.condition = (ConditionType.PROGRESSING, ConditionStatus.TRUE, Reason.WAVE_STARTED, started)
        decision.event(Reason.WAVE_STARTED, started, wave=0)
    return decision


def _held(decision: Decision, rollout: RolloutView, state: dict[int, str]) -> bool:
    """Whether the wave's gate holds its pending gateways back; moves the phase between Progressing and
    AwaitingApproval as the gate says."""
    held = rollout.gate == Gate.AWAITING and TargetState.PENDING in state.values()
    if held and rollout.phase == RolloutPhase.PROGRESSING:
        decision.phase = RolloutPhase.AWAITING_APPROVAL
        decision.condition = (
            ConditionType.APPROVED,
            ConditionStatus.FALSE,
            Reason.AWAITING_APPROVAL,
            f"Wave {rollout.current_wave} waits for approval of its plan",
        )
    elif not held and rollout.phase == RolloutPhase.AWAITING_APPROVAL:
        decision.phase = RolloutPhase.PROGRESSING
    return held


def step(rollout: RolloutView, targets: list[TargetView], now: datetime) -> Decision:
    """The next step of ``rollout``; ``targets`` must hold at least the current wave's."""
    if rollout.phase == RolloutPhase.PENDING:
        return _start(rollout)
    decision = Decision()
    if rollout.phase not in (RolloutPhase.PROGRESSING, RolloutPhase.AWAITING_APPROVAL):
        return decision
    wave = [t for t in targets if t.wave == rollout.current_wave]
    judged = {t.id: _judge(t, rollout, now) for t in wave}
    decision.transitions = [t for t in judged.values() if t is not None]
    state = {t.id: (judged[t.id].state if judged[t.id] else t.state) for t in wave}
    failed = {t.id: judged[t.id].reason for t in wave if state[t.id] == TargetState.FAILED and judged[t.id]}
    if failed:
        _halt(decision, rollout, wave, failed)
        return decision
    if _held(decision, rollout, state):
        return decision
    slots = rollout.max_parallel - sum(1 for s in state.values() if s == TargetState.UPGRADING)
    for target in wave:
        if slots <= 0:
            break
        if state[target.id] == TargetState.PENDING and target.window_hold:
            decision.window_wait = decision.window_wait or f"{target.gateway_name} waits: {target.window_hold}"
        elif state[target.id] == TargetState.PENDING:
            decision.transitions.append(Transition(target.id, TargetState.UPGRADING))
            state[target.id], slots = TargetState.UPGRADING, slots - 1
    if not all(s in SETTLED for s in state.values()):
        return decision
    baking_since = rollout.baking_since
    if baking_since is None:
        baking_since = decision.baking_since = now
        decision.event(
            Reason.WAVE_HEALTHY,
            f"Wave {rollout.current_wave} is healthy; baking for {int(rollout.bake.total_seconds())}s",
            wave=rollout.current_wave,
        )
    if now - baking_since < rollout.bake:
        return decision
    next_wave = rollout.current_wave + 1
    decision.clear_baking = True
    if next_wave >= rollout.wave_count:
        decision.phase = RolloutPhase.COMPLETED
        decision.condition = (
            ConditionType.PROGRESSING,
            ConditionStatus.FALSE,
            Reason.COMPLETED,
            "Every wave is healthy",
        )
        decision.event(Reason.COMPLETED, f"All {rollout.wave_count} waves are healthy")
    else:
        decision.current_wave, decision.wave_started = next_wave, True
        started = f"Wave {next_wave} started"
        decision.condition = (ConditionType.PROGRESSING, ConditionStatus.TRUE, Reason.WAVE_STARTED, started)
        decision.event(Reason.WAVE_STARTED, started, wave=next_wave)
    return decision
