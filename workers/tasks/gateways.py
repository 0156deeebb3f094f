"""Gateway tasks: one reconcile pass, and the periodic resync of every gateway that is due."""

from __future__ import annotations

from datetime import datetime, timedelta

from celery import shared_task
from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from controlplane.metrics import PassOutcome, timed_pass
from gateways.models import Gateway
from workers.reconcile.gateway.run import run_pass

__all__ = ["due_gateway_ids", "reconcile_gateway", "resync_gateways"]


@shared_task(name="workers.tasks.reconcile_gateway", ignore_result=True)
def reconcile_gateway(gateway_id: str) -> None:
    with timed_pass("gateway") as pass_:
        requeue_after = run_pass(gateway_id)
        pass_.result = PassOutcome.SUCCESS if requeue_after is None else PassOutcome.REQUEUED
    if requeue_after is not None:
        reconcile_gateway.apply_async((gateway_id,), countdown=max(requeue_after, 0.0))


def due_gateway_ids(now: datetime, interval: timedelta) -> list[str]:
    """Gateways whose backoff has passed, that no pass holds, and that no pass has seen for ``interval``."""
    return [
        str(pk)
        for pk in Gateway.objects.filter(Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now))
        .filter(Q(lease_expires_at__isnull=True) | Q(lease_expires_at__lt=now))
        .filter(Q(last_reconciled_at__isnull=True) | Q(last_reconciled_at__lte=now - interval))
        .values_list("id", flat=True)
    ]


@shared_task(name="workers.tasks.resync_gateways", ignore_result=True)
def resync_gateways() -> None:
    """Enqueue every gateway that is due; the database, not the queue, is the source of truth."""
    for gateway_id in due_gateway_ids(timezone.now(), timedelta(seconds=settings.RESYNC_INTERVAL_SECONDS)):
        reconcile_gateway.delay(gateway_id)
