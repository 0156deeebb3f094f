"""A platform admin's override of a cluster's maintenance windows, and waking the changes that waited for one."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from controlplane.audit import record
from controlplane.dispatch import enqueue_on_commit
from controlplane.models import ManagedCluster
from controlplane.queues import QueueName
from controlplane.tasks import TaskName

__all__ = ["MAX_OVERRIDE_MINUTES", "override_window", "wake_held_gateways"]

MAX_OVERRIDE_MINUTES = 24 * 60
OVERRIDE_ACTION = "override-window"


def wake_held_gateways(cluster: ManagedCluster) -> int:
    """Queue a pass now for every gateway of ``cluster`` that waits for a window (the pass judges again); how
    many. Their wait is cleared so that the pass is due."""
    held = cluster.gateways.filter(window_held_until__isnull=False)
    ids = list(held.values_list("pk", flat=True))
    held.update(next_attempt_at=None)
    for gateway_id in ids:
        enqueue_on_commit(TaskName.RECONCILE_GATEWAY, gateway_id, queue=QueueName.PLATFORM)
    return len(ids)


def override_window(
    cluster: ManagedCluster, user: Any, reason: str, minutes: int, now: datetime | None = None, source: str = "api"
) -> datetime:
    """Open ``cluster`` to changes for ``minutes``, whatever its windows and freezes say; audited with ``reason``.
    Returns until when."""
    now = now or timezone.now()
    until = now + timedelta(minutes=minutes)
    with transaction.atomic():
        cluster.window_override_until, cluster.window_override_reason = until, reason
        cluster.save(update_fields=("window_override_until", "window_override_reason", "updated_at"))
        record(user, OVERRIDE_ACTION, cluster, {"reason": reason, "until": until.isoformat()}, source=source)
        wake_held_gateways(cluster)
    return until
