"""Rollout tasks: advance one rollout (on create, pause, resume), and every working one periodically."""

from __future__ import annotations

from celery import shared_task

from workers.reconcile.rollout import controller

__all__ = ["advance_rollout", "advance_rollouts"]


@shared_task(name="workers.tasks.advance_rollout", ignore_result=True)
def advance_rollout(rollout_id: str) -> None:
    controller.advance(rollout_id)


@shared_task(name="workers.tasks.advance_rollouts", ignore_result=True)
def advance_rollouts() -> None:
    """The periodic tick (ROLLOUT_INTERVAL_SECONDS): one step of each rollout, in this task (database work only)."""
    for rollout_id in controller.active_rollout_ids():
        controller.advance(rollout_id)
