"""Which queue a gateway pass goes to (see ``controlplane.queues``): the platform's when a platform admin asked
for it, else the shard of the gateway's owner, looked up when the task is sent (a Celery router)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError

from controlplane.api.permissions import is_platform_admin
from controlplane.queues import QueueName, tenant_queue
from controlplane.tasks import TaskName
from gateways.models import Gateway

__all__ = ["asked_by", "route"]


def asked_by(user: Any) -> QueueName | None:
    """The queue for a pass ``user`` asked for: the platform's for a platform admin, else None (the owner's)."""
    return QueueName.PLATFORM if is_platform_admin(user) else None


def route(name: str, args: Sequence[Any], kwargs: dict, options: dict, task: Any = None, **_: Any) -> str | None:
    """Celery's router (``task_routes``): a gateway pass sent without a queue goes to its owner's shard.

    None leaves the task where it was sent: the queue named by the sender, else the default queue (also for a
    gateway that is gone: its pass only skips)."""
    if name != TaskName.RECONCILE_GATEWAY or options.get("queue") or not args:
        return None
    try:
        owner_id = Gateway.objects.filter(pk=args[0]).values_list("owner_id", flat=True).first()
    except (ValidationError, ValueError):
        return None
    return None if owner_id is None else tenant_queue(owner_id, settings.GATEWAY_TENANT_QUEUES)
