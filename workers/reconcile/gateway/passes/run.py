"""Run one pass for one gateway: within its cluster's share of this worker's pool and its cluster's slots, lease
it, build the request, reconcile, publish."""

from __future__ import annotations

import logging
import random
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from controlplane.metrics import PassOutcome
from controlplane.models import ManagedCluster
from gateways.models import Gateway
from gateways.states import Step
from workers import breaker, releases, singletons
from workers.charts import Chart
from workers.drivers import errors
from workers.drivers.helm import HelmTarget
from workers.drivers.kube import KubeClient
from workers.pool_share import cluster_share
from workers.reconcile.ending import pass_outcome
from workers.reconcile.gateway.outcome import GatewayOutcome
from workers.reconcile.gateway.pass_io import PassIo
from workers.reconcile.gateway.passes.loop import fail, reconcile, unreachable
from workers.reconcile.gateway.passes.publish import publish
from workers.reconcile.gateway.passes.request_from_rows import build_request
from workers.reconcile.gateway.passes.window_gate import requeue_in
from workers.reconcile.gateway.request import GatewayRequest
from workers.reconcile.lease import held_lease

__all__ = ["pool_percent", "run_pass"]

log = logging.getLogger(__name__)

STALE_REQUEUE_SECONDS = 0.2
CLUSTER_BUSY_SECONDS = 2.0


def _cluster_has_slot(cluster_id: object, gateway_id: str) -> bool:
    """At most GATEWAY_CLUSTER_CONCURRENCY passes hold leases on one cluster (checked under its row lock)."""
    ManagedCluster.objects.select_for_update().filter(pk=cluster_id).first()
    busy = (
        Gateway.objects.filter(cluster_id=cluster_id, lease_expires_at__gt=timezone.now())
        .exclude(pk=gateway_id)
        .count()
    )
    return busy < settings.GATEWAY_CLUSTER_CONCURRENCY


def pool_percent() -> int:
    """GATEWAY_CLUSTER_POOL_PERCENT, unless the fleet has a single cluster: it has no other to leave slots to."""
    return settings.GATEWAY_CLUSTER_POOL_PERCENT if ManagedCluster.objects.count() > 1 else 100


def run_pass(gateway_id: str) -> tuple[PassOutcome, float | None]:
    """Reconcile once: how the pass ended, and the seconds until the next one is wanted (None: not wanted)."""
    cluster_id = Gateway.objects.filter(pk=gateway_id).values_list("cluster_id", flat=True).first()
    if cluster_id is None:
        return PassOutcome.SKIPPED, None
    with cluster_share(str(cluster_id), pool_percent()) as held:
        if not held:
            # This worker's share for the cluster is taken: give the pool slot back to the other clusters.
            return PassOutcome.SKIPPED, _busy_countdown()
        return _leased_pass(gateway_id, cluster_id)


def _busy_countdown() -> float:
    """Spread the retries of a full cluster, so its queued passes do not return in lockstep."""
    return CLUSTER_BUSY_SECONDS * (1 + random.random())


def _leased_pass(gateway_id: str, cluster_id: object) -> tuple[PassOutcome, float | None]:
    """The pass within the cluster's fleet-wide slots (GATEWAY_CLUSTER_CONCURRENCY) and the gateway's lease."""
    ttl = timedelta(seconds=settings.GATEWAY_LEASE_SECONDS)
    slot_free = True

    def admit() -> bool:
        nonlocal slot_free
        slot_free = _cluster_has_slot(cluster_id, gateway_id)
        return slot_free

    with held_lease(Gateway, gateway_id, ttl, admit=admit) as lease:
        if lease is None and slot_free:
            # Another pass holds it: ask that one to run once more, so many requests collapse into one.
            # Should that pass die, its lease lapses and the resync honours the request.
            Gateway.objects.filter(pk=gateway_id).update(pass_requested=True)
            return PassOutcome.SKIPPED, None
        if lease is None:
            return PassOutcome.SKIPPED, _busy_countdown()
        gateway = Gateway.objects.select_related("cluster", "release").filter(pk=gateway_id).first()
        if gateway is None:
            return PassOutcome.SKIPPED, None
        now = timezone.now()
        if gateway.deletion_requested_at is None and gateway.next_attempt_at and gateway.next_attempt_at > now:
            return PassOutcome.SKIPPED, requeue_in(gateway.next_attempt_at, now)
        chart, release = releases.load(gateway)
        request = build_request(gateway, chart, now, release)
        outcome = _reconcile(gateway, request, chart)
        if outcome.cluster_outage is not None:
            breaker.open_circuit(gateway.cluster, outcome.cluster_outage)
        log.info("gateway %s pass: phase=%s requeue=%s", gateway.name, outcome.phase, outcome.requeue_after)
        applied = publish(request, outcome, timezone.now(), lease_token=lease.token)
        again = Gateway.objects.filter(pk=gateway_id, pass_requested=True).update(pass_requested=False)
    ended = pass_outcome(
        saved=applied,
        failed=outcome.failed,
        requeue_after=outcome.requeue_after,
        unreachable=outcome.cluster_outage is not None,
    )
    return ended, STALE_REQUEUE_SECONDS if again or not applied else outcome.requeue_after


def _reconcile(gateway: Gateway, request: GatewayRequest, chart: Chart) -> GatewayOutcome:
    """The pass itself, unless the cluster's circuit is open: then touch nothing and say why."""
    cluster = gateway.cluster
    if breaker.is_open(cluster):
        return unreachable(request, breaker.outage(cluster))
    try:
        with KubeClient(cluster.kubeconfig, budget=singletons.request_budget()) as kube:
            target = HelmTarget(kubeconfig=cluster.kubeconfig, namespace=gateway.namespace)
            return reconcile(request, PassIo(helm=singletons.helm(), kube=kube, target=target, chart=chart))
    except errors.DriverError as exc:
        if errors.is_outage(exc):
            return unreachable(request, str(exc))
        return fail(request, Step.CONNECT, str(exc))
