"""Approve or reject the plan a rollout wave waits with: one home for the API, the console and the CLI.

Both lock the rollout row, so neither races the controller's step; both record an event (which the
notifications outbox picks up) and enqueue the controller once the transaction commits.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from cluster_vocabulary.kubernetes import ConditionStatus, EventType
from controlplane.conditions import set_condition
from controlplane.dispatch import enqueue_on_commit
from controlplane.tasks import TaskName
from rollouts.approval import ApprovalState, Refusal, refusal
from rollouts.choices import RolloutPhase
from rollouts.models import Rollout, RolloutEvent, WavePlan
from rollouts.states import ConditionType, Reason

__all__ = ["ApprovalRefused", "approve", "awaiting_plan", "reject"]

HASH_SHOWN = 12


class ApprovalRefused(Exception):
    """An approval or rejection that may not be made; ``refusal`` says why, ``current_hash`` names the plan that
    waits (None: none does)."""

    def __init__(self, refusal: Refusal, message: str, current_hash: str | None = None) -> None:
        super().__init__(message)
        self.refusal, self.message, self.current_hash = refusal, message, current_hash


def awaiting_plan(rollout: Rollout) -> WavePlan | None:
    """The current wave's plan, if it waits for approval."""
    plan = WavePlan.objects.filter(rollout=rollout, wave=rollout.current_wave).first()
    return plan if plan is not None and plan.state == ApprovalState.AWAITING else None


def _locked_awaiting(rollout_id: Any) -> tuple[Rollout, WavePlan | None]:
    rollout = Rollout.objects.select_for_update().get(pk=rollout_id)
    return rollout, awaiting_plan(rollout) if rollout.phase == RolloutPhase.AWAITING_APPROVAL else None


def approve(rollout_id: Any, user: Any, plan_hash: str) -> WavePlan:
    """Approve the waiting plan whose hash is ``plan_hash``; raises ``ApprovalRefused``."""
    with transaction.atomic():
        rollout, plan = _locked_awaiting(rollout_id)
        why = refusal(
            awaiting_hash=plan.plan_hash if plan else None,
            given_hash=plan_hash,
            approver_id=user.pk,
            creator_id=rollout.created_by_id,
            allow_self=settings.ROLLOUT_ALLOW_SELF_APPROVAL,
        )
        if why == Refusal.NOT_AWAITING:
            raise ApprovalRefused(why, f"The rollout is {rollout.phase}; no plan waits for approval.")
        if why == Refusal.SELF_APPROVAL:
            raise ApprovalRefused(
                why,
                "Four eyes: the rollout's creator may not approve it; another platform admin "
                "must (ROLLOUT_ALLOW_SELF_APPROVAL is off).",
            )
        assert plan is not None
        if why == Refusal.STALE_HASH:
            raise ApprovalRefused(
                why,
                f"plan_hash {plan_hash!r} is not the plan that waits for approval; the current "
                f"plan_hash is {plan.plan_hash}.",
                plan.plan_hash,
            )
        now = timezone.now()
        plan.state, plan.decided_by, plan.decided_at = ApprovalState.APPROVED, user, now
        plan.save(update_fields=("state", "decided_by", "decided_at"))
        message = f"Wave {rollout.current_wave}'s plan {plan.plan_hash[:HASH_SHOWN]} approved by {user.username}"
        rollout.conditions = set_condition(
            rollout.conditions,
            type_=ConditionType.APPROVED,
            status=ConditionStatus.TRUE,
            reason=Reason.APPROVED,
            message=message,
            generation=0,
            now=now,
        )
        rollout.save(update_fields=("conditions", "updated_at"))
        RolloutEvent.objects.create(rollout=rollout, wave=rollout.current_wave, reason=Reason.APPROVED, message=message)
        enqueue_on_commit(TaskName.ADVANCE_ROLLOUT, rollout.pk)
    return plan


def reject(rollout_id: Any, user: Any, reason: str) -> WavePlan:
    """Reject the waiting plan and halt the rollout, with ``reason``; raises ``ApprovalRefused``."""
    with transaction.atomic():
        rollout, plan = _locked_awaiting(rollout_id)
        if plan is None:
            raise ApprovalRefused(Refusal.NOT_AWAITING, f"The rollout is {rollout.phase}; no plan waits for approval.")
        now = timezone.now()
        plan.state, plan.decided_by, plan.decided_at, plan.reason = ApprovalState.REJECTED, user, now, reason[:2048]
        plan.save(update_fields=("state", "decided_by", "decided_at", "reason"))
        shown = plan.plan_hash[:HASH_SHOWN]
        message = f"Wave {rollout.current_wave}'s plan {shown} rejected by {user.username}: {reason}"
        rollout.phase, rollout.finished_at = RolloutPhase.HALTED, now
        for type_ in (ConditionType.APPROVED, ConditionType.HALTED):
            rollout.conditions = set_condition(
                rollout.conditions,
                type_=type_,
                status=ConditionStatus.FALSE if type_ == ConditionType.APPROVED else ConditionStatus.TRUE,
                reason=Reason.REJECTED,
                message=message[:1024],
                generation=0,
                now=now,
            )
        rollout.save(update_fields=("phase", "finished_at", "conditions", "updated_at"))
        RolloutEvent.objects.create(
            rollout=rollout,
            wave=rollout.current_wave,
            reason=Reason.REJECTED,
            message=message[:2048],
            type=EventType.WARNING,
        )
    return plan
