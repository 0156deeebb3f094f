"""Gateway tasks: one reconcile pass, the resync of one cluster, and the periodic fan-out over clusters."""

from __future__ import annotations

from celery import Task, shared_task

from controlplane.metrics import timed_pass
from controlplane.models import ManagedCluster
from controlplane.tasks import TaskName
from workers import queued_passes
from workers.reconcile.gateway import fleet
from workers.reconcile.gateway.run import run_pass
from workers.tasks.transient import retried_when_transient

__all__ = ["reconcile_gateway", "resync_cluster", "resync_gateways"]


@shared_task(bind=True, name=TaskName.RECONCILE_GATEWAY, ignore_result=True)
def reconcile_gateway(self: Task, gateway_id: str) -> None:
    queued_passes.started(gateway_id)
    with retried_when_transient(self), timed_pass("gateway") as pass_:
        pass_.result, requeue_after = run_pass(gateway_id)
    if requeue_after is not None:
        reconcile_gateway.apply_async((gateway_id,), countdown=max(requeue_after, 0.0))


@shared_task(bind=True, name=TaskName.RESYNC_CLUSTER, ignore_result=True)
def resync_cluster(self: Task, cluster_id: str) -> None:
    """One snapshot of the cluster; a pass only for the gateways that are not in sync and healthy."""
    with retried_when_transient(self):
        fleet.resync_cluster(cluster_id, enqueue=reconcile_gateway.delay)


@shared_task(name=TaskName.RESYNC_GATEWAYS, ignore_result=True)
def resync_gateways() -> None:
    """The level-triggered safety net: resync every cluster; the database, not the queue, is the truth."""
    for cluster_id in ManagedCluster.objects.values_list("id", flat=True):
        resync_cluster.delay(str(cluster_id))
