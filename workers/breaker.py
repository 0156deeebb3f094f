"""The per-cluster circuit breaker: a cluster that does not answer gets no helm and no failures.

The circuit is the cluster's ``reachable`` flag. A pass that meets an outage opens it; the probe
closes it when the cluster answers again. Either transition, and a probe that finds the served APIs
changed, enqueues a resync of the cluster, which marks its gateways ``ClusterReachable`` (or
``PrerequisitesMissing``) and resumes their convergence without a manual retry. Each change of reachability
is recorded as a cluster event (Warning ``Unreachable``, Normal ``Reachable``), which notifications can follow.
"""

from __future__ import annotations

import logging

from django.utils import timezone

from cluster_vocabulary.kubernetes import EventType
from controlplane.dispatch import send
from controlplane.events import ClusterReason
from controlplane.models import ClusterEvent, ManagedCluster
from controlplane.tasks import TaskName

__all__ = ["is_open", "open_circuit", "outage", "record_probe"]

log = logging.getLogger(__name__)


def is_open(cluster: ManagedCluster) -> bool:
    return cluster.reachable is False


def outage(cluster: ManagedCluster) -> str:
    """Why an open circuit's cluster is not asked: its last probe's message."""
    return cluster.probe_message or "the cluster did not answer its last probe"


def open_circuit(cluster: ManagedCluster, message: str) -> None:
    """Mark the cluster unreachable; the first pass to notice enqueues the resync that marks its gateways."""
    opened = (
        ManagedCluster.objects.filter(pk=cluster.pk)
        .exclude(reachable=False)
        .update(reachable=False, probe_message=message[:1024], last_probe_at=timezone.now())
    )
    if opened:
        log.warning("cluster %s does not answer; its circuit is open: %s", cluster.name, message)
        _record(cluster, reachable=False, message=message)
        send(TaskName.RESYNC_CLUSTER, cluster.pk)


def _record(cluster: ManagedCluster, *, reachable: bool, message: str) -> None:
    if reachable:
        ClusterEvent.objects.create(
            cluster=cluster,
            type=EventType.NORMAL,
            reason=ClusterReason.REACHABLE,
            message=f"The cluster answers again: {message}"[:2048],
        )
    else:
        ClusterEvent.objects.create(
            cluster=cluster,
            type=EventType.WARNING,
            reason=ClusterReason.UNREACHABLE,
            message=f"The cluster does not answer: {message}"[:2048],
        )


def record_probe(cluster: ManagedCluster, was_reachable: bool | None, had: dict[str, bool]) -> None:
    """After a probe: a change of reachability or of the served APIs (``had`` before) resyncs the cluster's gateways."""
    if cluster.reachable is False and was_reachable is not False:
        _record(cluster, reachable=False, message=cluster.probe_message)
    elif cluster.reachable and was_reachable is False:
        _record(cluster, reachable=True, message=cluster.probe_message)
    if cluster.reachable != was_reachable or cluster.capabilities != had:
        log.info(
            "cluster %s reachable: %s -> %s; capabilities: %s -> %s",
            cluster.name,
            was_reachable,
            cluster.reachable,
            had,
            cluster.capabilities,
        )
        send(TaskName.RESYNC_CLUSTER, cluster.pk)
