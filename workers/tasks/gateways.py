"""Gateway tasks: one reconcile pass, and the periodic resync of every gateway that is due."""

from __future__ import annotations

from celery import shared_task
from django.db.models import Q
from django.utils import timezone

from gateways.models import Gateway
from workers.reconcile.gateway.run import run_pass

__all__ = ["reconcile_gateway", "resync_gateways"]


@shared_task(name="workers.tasks.reconcile_gateway", ignore_result=True)
def reconcile_gateway(gateway_id: str) -> None:
    requeue_after = run_pass(gateway_id)
    if requeue_after is not None:
        reconcile_gateway.apply_async((gateway_id,), countdown=max(requeue_after, 0.0))


@shared_task(name="workers.tasks.resync_gateways", ignore_result=True)
def resync_gateways() -> None:
    """Enqueue every gateway that is due and not being worked on; the database is the source of truth."""
    now = timezone.now()
    due = (
        Gateway.objects.filter(Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now))
        .filter(Q(lease_expires_at__isnull=True) | Q(lease_expires_at__lt=now))
        .values_list("id", flat=True)
    )
    for gateway_id in due:
        reconcile_gateway.delay(str(gateway_id))
