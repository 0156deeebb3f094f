"""What the reconciler would do with a gateway, decided from the release state and what blocks it (pure)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gateways.states import PlanAction
from workers.reconcile.gateway.observation.state import State

__all__ = ["PlanDecision", "decide"]

STATE_ACTIONS = {
    State.ABSENT: PlanAction.INSTALL,
    State.OUT_OF_SYNC: PlanAction.UPGRADE,
    State.DRIFTED: PlanAction.UPGRADE,
    State.FAILED: PlanAction.UPGRADE,
    State.LOCKED: PlanAction.UPGRADE,
    State.IN_SYNC: PlanAction.NOTHING,
    State.BUSY: PlanAction.BLOCKED,
}
STATE_REASONS = {
    State.ABSENT: "No release is installed: helm install.",
    State.OUT_OF_SYNC: "The deployed release's values or chart version differ: helm upgrade --reset-values.",
    State.DRIFTED: "The release is current but its workload is gone: helm upgrade to repair it.",
    State.FAILED: "The last Helm operation failed: helm upgrade --reset-values, under backoff.",
    State.LOCKED: "A Helm operation is stuck pending: it is unlocked, then upgraded.",
    State.IN_SYNC: "The deployed release is current.",
    State.BUSY: "A Helm operation is in progress: the reconciler waits for it to finish.",
}


@dataclass(frozen=True)
class PlanDecision:
    action: PlanAction
    reasons: list[str]


def decide(state: State, *, blockers: Sequence[str], suspended: bool, retries_exhausted: bool) -> PlanDecision:
    """Suspension wins (nothing runs), then anything that blocks, then the action for the release state."""
    if suspended:
        return PlanDecision(
            PlanAction.NOTHING, ["Reconciliation is suspended: nothing is applied until it is resumed."]
        )
    if blockers:
        return PlanDecision(PlanAction.BLOCKED, list(blockers))
    if retries_exhausted:
        return PlanDecision(
            PlanAction.BLOCKED, ["Retries are exhausted: retry the gateway (or change its spec) first."]
        )
    return PlanDecision(STATE_ACTIONS[state], [STATE_REASONS[state]])
