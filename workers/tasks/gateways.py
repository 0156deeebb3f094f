"""Gateway tasks: one reconcile pass, the resync of one cluster, and the periodic fan-out over clusters."""

from __future__ import annotations

import logging
from typing import Any

from celery import Task, shared_task
from celery.signals import worker_init
from django.conf import settings

from controlplane.metrics import timed_pass
from controlplane.models import ManagedCluster
from controlplane.tasks import TaskName
from workers import queued_passes
from workers.drivers.helm_storage import remember_releases
from workers.pool_share import cluster_share
from workers.reconcile.gateway.observation.drift import remember_verdicts
from workers.reconcile.gateway.passes import fleet
from workers.reconcile.gateway.passes.run import pool_percent, run_pass
from workers.tasks.transient import retried_when_transient

__all__ = ["reconcile_gateway", "resync_cluster", "resync_gateways", "same_queue"]

log = logging.getLogger(__name__)


@worker_init.connect
def _remember_the_fleet(**_: Any) -> None:
    """Size what each worker process remembers between resyncs (FLEET_MEMO_GATEWAYS): a decoded Helm record per
    gateway, and two drift verdicts (its pass and the fleet resync judge it by different kinds)."""
    remember_releases(settings.FLEET_MEMO_GATEWAYS)
    remember_verdicts(2 * settings.FLEET_MEMO_GATEWAYS)


@shared_task(bind=True, name=TaskName.RECONCILE_GATEWAY, ignore_result=True)
def reconcile_gateway(self: Task, gateway_id: str) -> None:
    queued_passes.started(gateway_id)
    with retried_when_transient(self), timed_pass("gateway") as pass_:
        pass_.result, requeue_after = run_pass(gateway_id)
    if requeue_after is not None:
        reconcile_gateway.apply_async((gateway_id,), countdown=max(requeue_after, 0.0), queue=same_queue(self))


def same_queue(task: Task) -> str | None:
    """The queue the pass came from, so an admin's delete keeps its place ahead of a tenant's burst; None (the
    owner's shard) for a queue the workers no longer consume (GATEWAY_TENANT_QUEUES was lowered) or none."""
    queue = (task.request.delivery_info or {}).get("routing_key")
    return queue if queue in task.app.amqp.queues else None


@shared_task(bind=True, name=TaskName.RESYNC_CLUSTER, ignore_result=True)
def resync_cluster(self: Task, cluster_id: str) -> None:
    """One snapshot of the cluster; a pass only for the gateways that are not in sync and healthy. Within the
    cluster's share of this worker's pool: when that is taken, this resync is dropped (the next comes within
    RESYNC_INTERVAL_SECONDS), so a slow cluster's resyncs do not pile up in the pool."""
    with cluster_share(cluster_id, pool_percent()) as held:
        if not held:
            log.info("resync of cluster %s skipped: its share of this worker is taken", cluster_id)
            return
        with retried_when_transient(self):
            fleet.resync_cluster(cluster_id, enqueue=reconcile_gateway.delay)


@shared_task(name=TaskName.RESYNC_GATEWAYS, ignore_result=True)
def resync_gateways() -> None:
    """The level-triggered safety net: resync every cluster; the database, not the queue, is the truth."""
    for cluster_id in ManagedCluster.objects.values_list("id", flat=True):
        resync_cluster.delay(str(cluster_id))
