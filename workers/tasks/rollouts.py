"""Rollout tasks: advance one rollout (on create, pause, resume), and every working one periodically."""

from __future__ import annotations

from celery import Task, shared_task

from controlplane.tasks import TaskName
from workers.reconcile.rollout import controller
from workers.tasks.transient import retried_when_transient
from workers.wave_planning import ClusterWavePlanner

__all__ = ["advance_rollout", "advance_rollouts"]

PLANNER = ClusterWavePlanner()


@shared_task(bind=True, name=TaskName.ADVANCE_ROLLOUT, ignore_result=True)
def advance_rollout(self: Task, rollout_id: str) -> None:
    with retried_when_transient(self):
        controller.advance(rollout_id, PLANNER)


@shared_task(bind=True, name=TaskName.ADVANCE_ROLLOUTS, ignore_result=True)
def advance_rollouts(self: Task) -> None:
    """The periodic tick (ROLLOUT_INTERVAL_SECONDS): one step of each rollout, in this task (database work only, but for
    planning a wave that needs approval)."""
    with retried_when_transient(self):
        for rollout_id in controller.active_rollout_ids():
            controller.advance(rollout_id, PLANNER)
