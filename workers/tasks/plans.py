"""Plan tasks: compute one plan (a preview of a reconcile; nothing is applied)."""

from __future__ import annotations

from celery import shared_task

from controlplane.tasks import TaskName
from workers.reconcile.gateway.plan.build import run_plan

__all__ = ["plan_gateway"]


@shared_task(name=TaskName.PLAN_GATEWAY, ignore_result=True)
def plan_gateway(plan_id: str) -> None:
    run_plan(plan_id)
