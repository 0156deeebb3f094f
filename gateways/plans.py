"""Plans: ask a worker what reconciling a spec would do, shared by the API and the console.

A plan is a row that a worker (task ``workers.tasks.plan_gateway``) fills in; nothing is applied and
nothing else is stored. The spec to plan is copied into the row, encrypted, so a would-be gateway
needs no Gateway row at all.
"""

from __future__ import annotations

import json
import time
from datetime import datetime, timedelta
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from controlplane.api.permissions import is_platform_admin
from controlplane.dispatch import enqueue_on_commit
from controlplane.tasks import TaskName
from gateways.choices import PlanStatus
from gateways.models import Gateway, GatewayPlan

__all__ = [
    "MAX_WAIT_SECONDS",
    "PLAN_RETENTION",
    "prune",
    "request_plan",
    "spec_of",
    "visible_plans",
    "wait",
]

PLAN_RETENTION = timedelta(hours=1)
MAX_WAIT_SECONDS = 30
POLL_SECONDS = 0.2
SPEC_KEYS = ("name", "namespace", *Gateway.SPEC_FIELDS)


def spec_of(gateway: Gateway) -> dict[str, Any]:
    """The gateway's name, namespace and spec fields as plain JSON (UUIDs as strings)."""
    return json.loads(json.dumps({key: getattr(gateway, key) for key in SPEC_KEYS}, cls=DjangoJSONEncoder))


def request_plan(owner: Any, candidate: Gateway, gateway: Gateway | None = None) -> GatewayPlan:
    """Store a pending plan of ``candidate`` (an unsaved or saved Gateway) and enqueue it once committed."""
    with transaction.atomic():
        plan = GatewayPlan.objects.create(
            owner=owner,
            gateway=gateway,
            cluster_id=candidate.cluster_id,
            name=candidate.name,
            spec=json.dumps(spec_of(candidate)),
        )
        enqueue_on_commit(TaskName.PLAN_GATEWAY, plan.pk)
    return plan


def wait(plan: GatewayPlan, seconds: float) -> GatewayPlan:
    """Poll until the plan is no longer pending or ``seconds`` have passed (call outside a transaction)."""
    deadline = time.monotonic() + min(seconds, MAX_WAIT_SECONDS)
    while plan.status == PlanStatus.PENDING and time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)
        plan.refresh_from_db()
    return plan


def visible_plans(user: Any) -> QuerySet[GatewayPlan]:
    """Platform admins see every plan; anyone else only their own."""
    plans = GatewayPlan.objects.select_related("cluster")
    return plans if is_platform_admin(user) else plans.filter(owner=user)


def prune(now: datetime | None = None) -> int:
    """Delete plans older than ``PLAN_RETENTION``; returns how many."""
    cutoff = (now or timezone.now()) - PLAN_RETENTION
    return GatewayPlan.objects.filter(created_at__lt=cutoff).delete()[0]
