"""Cluster tasks: probe one cluster, or fan out a probe to every cluster."""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings

from controlplane.tasks import TaskName
from workers import cluster_probe

__all__ = ["probe_all_clusters", "probe_cluster"]

log = logging.getLogger(__name__)


@shared_task(name=TaskName.PROBE_CLUSTER, ignore_result=True)
def probe_cluster(cluster_id: str) -> None:
    cluster_probe.probe_by_id(cluster_id)


@shared_task(name=TaskName.PROBE_ALL_CLUSTERS, ignore_result=True)
def probe_all_clusters() -> None:
    """A probe not started within one interval is dropped: a slow cluster's probes never pile up."""
    for cluster_id in cluster_probe.all_cluster_ids():
        probe_cluster.apply_async((str(cluster_id),), expires=settings.RESYNC_INTERVAL_SECONDS)
