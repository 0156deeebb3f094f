"""Run one pass for one gateway: lease it, build the request, reconcile, publish."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from gateways.models import Gateway
from workers import runtime
from workers.drivers import errors
from workers.drivers.helm import HelmTarget
from workers.drivers.kube import KubeClient
from workers.reconcile.gateway.io import PassIo
from workers.reconcile.gateway.load import build_request
from workers.reconcile.gateway.loop import fail, reconcile
from workers.reconcile.gateway.publish import publish
from workers.reconcile.lease import held_lease

__all__ = ["run_pass"]

log = logging.getLogger(__name__)

LEASE_BUSY_SECONDS = 3.0
STALE_REQUEUE_SECONDS = 0.2


def run_pass(gateway_id: str) -> float | None:
    """Reconcile once; return seconds until the next pass is wanted, or None when nothing is pending."""
    ttl = timedelta(seconds=settings.GATEWAY_LEASE_SECONDS)
    with held_lease(Gateway, gateway_id, ttl) as token:
        if token is None:
            return LEASE_BUSY_SECONDS
        gateway = Gateway.objects.select_related("cluster").filter(pk=gateway_id).first()
        if gateway is None:
            return None
        now = timezone.now()
        if gateway.deletion_requested_at is None and gateway.next_attempt_at and gateway.next_attempt_at > now:
            return (gateway.next_attempt_at - now).total_seconds()
        chart = runtime.gateway_chart()
        request = build_request(gateway, chart, now)
        try:
            with KubeClient(gateway.cluster.kubeconfig) as kube:
                target = HelmTarget(kubeconfig=gateway.cluster.kubeconfig, namespace=gateway.namespace)
                result = reconcile(request, PassIo(helm=runtime.helm(), kube=kube, target=target, chart=chart))
        except errors.DriverError as exc:
            result = fail(request, "Connect", str(exc))
        log.info("gateway %s pass: phase=%s requeue=%s", gateway.name, result.phase, result.requeue_after)
        applied = publish(request, result, timezone.now())
    return result.requeue_after if applied else STALE_REQUEUE_SECONDS
