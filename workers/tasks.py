"""Thin Celery tasks: take a primary key, load the object, call the code that does the work."""

from __future__ import annotations

import logging

from celery import shared_task

from workers import cluster_probe

__all__ = ["probe_all_clusters", "probe_cluster", "resync_all"]

log = logging.getLogger(__name__)


@shared_task(name="workers.tasks.probe_cluster", ignore_result=True)
def probe_cluster(cluster_id: str) -> None:
    cluster_probe.probe_by_id(cluster_id)


@shared_task(name="workers.tasks.probe_all_clusters", ignore_result=True)
def probe_all_clusters() -> None:
    for cluster_id in cluster_probe.all_cluster_ids():
        probe_cluster.delay(str(cluster_id))


@shared_task(name="workers.tasks.resync_all", ignore_result=True)
def resync_all() -> None:
    """The periodic resync: everything that is due gets enqueued again."""
    probe_all_clusters.delay()
