"""Probe a ManagedCluster: read ``/version`` and API discovery with the kubernetes client and record what was seen."""

from __future__ import annotations

import contextlib
import logging
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from controlplane.capabilities import PROBED_RESOURCES, capabilities_from
from controlplane.models import ManagedCluster
from workers import breaker, singletons
from workers.drivers.errors import DriverError
from workers.drivers.kube import KubeClient

__all__ = ["all_cluster_ids", "probe", "probe_by_id"]

log = logging.getLogger(__name__)


def all_cluster_ids() -> list[uuid.UUID]:
    return list(ManagedCluster.objects.values_list("id", flat=True))


def probe(cluster: ManagedCluster) -> ManagedCluster:
    """Read the cluster's version and served APIs; write reachable, version, capabilities and message in one update.

    A failed probe keeps the last capabilities: an outage says nothing about what the cluster serves.
    """
    was_reachable, had = cluster.reachable, dict(cluster.capabilities or {})
    try:
        with KubeClient(
            cluster.kubeconfig, timeout=settings.CLUSTER_PROBE_TIMEOUT_SECONDS, budget=singletons.request_budget()
        ) as kube:
            version = kube.version()
            served = kube.served_api_versions() | kube.served_resources(PROBED_RESOURCES)
            cluster.capabilities = capabilities_from(served)
    except DriverError as exc:
        cluster.reachable, cluster.probe_message = False, str(exc)[:1024]
    else:
        cluster.reachable = True
        cluster.kubernetes_version = str(version.get("gitVersion", ""))[:64]
        cluster.probe_message = f"Kubernetes {cluster.kubernetes_version} on {version.get('platform', 'unknown')}"
    cluster.last_probe_at = timezone.now()
    ManagedCluster.objects.filter(pk=cluster.pk).update(
        reachable=cluster.reachable,
        kubernetes_version=cluster.kubernetes_version,
        probe_message=cluster.probe_message,
        last_probe_at=cluster.last_probe_at,
        capabilities=cluster.capabilities,
    )
    log.info("probed cluster %s: reachable=%s capabilities=%s", cluster.name, cluster.reachable, cluster.capabilities)
    breaker.record_probe(cluster, was_reachable, had)
    return cluster


@contextmanager
def _only_probe(cluster_id: str) -> Iterator[bool]:
    """True unless another probe of this cluster is still running (a slow cluster holds one slot, not all).

    Without the shared cache every probe runs: a Redis outage must not stop probing."""
    key, first = f"probe-in-flight:{cluster_id}", True
    with contextlib.suppress(Exception):
        first = cache.add(key, 1, timeout=settings.CLUSTER_PROBE_TIMEOUT_SECONDS + 5)
    try:
        yield first
    finally:
        if first:
            with contextlib.suppress(Exception):
                cache.delete(key)


def probe_by_id(cluster_id: str) -> ManagedCluster | None:
    with _only_probe(cluster_id) as first:
        cluster = ManagedCluster.objects.filter(pk=cluster_id).first() if first else None
        return probe(cluster) if cluster else None
