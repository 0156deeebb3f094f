"""The watcher process: hold clusters by lease, watch each one, and enqueue passes for what changed.

Replicas share the clusters: each records that it is alive (``WatcherReplica``), renews the leases it
holds, takes free (or lapsed) clusters up to its fair share of the live replicas, and gives back any
beyond it, so each cluster has exactly one watcher. Changes are coalesced per flush: a namespace that
changed ten times gets one pass.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from dataclasses import dataclass, field
from datetime import timedelta

from django.db import DatabaseError, connection
from django.db.models import Q
from django.utils import timezone

from controlplane.dispatch import send
from controlplane.flavours import Flavour
from controlplane.models import ManagedCluster, WatcherReplica
from controlplane.tasks import TaskName
from gateways.models import Gateway
from workers import queued_passes, singletons
from workers.drivers.helm_storage import HELM_OWNER_SELECTOR
from workers.reconcile.gateway.observation.drift import DRIFT_KINDS, INSTANCE_LABEL
from workers.watcher.streams import WatchTarget, watch_forever

__all__ = ["ClusterWatch", "Watcher", "watch_targets"]

log = logging.getLogger(__name__)


def watch_targets(cluster: ManagedCluster) -> list[WatchTarget]:
    """Helm's release records, the chart's workloads, and the routes this cluster serves."""
    targets = [WatchTarget("v1", "secrets", HELM_OWNER_SELECTOR)]
    kinds = ["StatefulSet", "Deployment"]
    if cluster.gateway_api:
        kinds.append("GRPCRoute")
    if cluster.flavour == Flavour.OPENSHIFT:
        kinds.append("Route")
    targets += [WatchTarget(*DRIFT_KINDS[kind], INSTANCE_LABEL) for kind in kinds]
    return targets


@dataclass
class ClusterWatch:
    """The running watches of one cluster, and the namespaces they saw change since the last drain."""

    cluster_id: str
    name: str
    stop: threading.Event = field(default_factory=threading.Event)
    _dirty: set[str] = field(default_factory=set)
    _relisted: bool = True  # a fresh watch may have missed changes: start with a resync
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self, kubeconfig: str, targets: list[WatchTarget]) -> None:
        budget = singletons.request_budget()
        for target in targets:
            threading.Thread(
                target=watch_forever,
                args=(kubeconfig, target, self._changed, self.relisted, self.stop, budget),
                name=f"watch-{self.name}-{target.plural}",
                daemon=True,
            ).start()

    def _changed(self, namespace: str) -> None:
        with self._lock:
            self._dirty.add(namespace)

    def relisted(self) -> None:
        """Changes may have been missed: the next drain asks for a resync of the whole cluster."""
        with self._lock:
            self._relisted = True

    def drain(self) -> tuple[set[str], bool]:
        with self._lock:
            dirty, relisted = self._dirty, self._relisted
            self._dirty, self._relisted = set(), False
        return dirty, relisted


class Watcher:
    """One watcher replica. ``run`` until ``stop`` is set; leases are given back on the way out."""

    def __init__(self, identity: str, lease: timedelta, flush_seconds: float = 1.0) -> None:
        self.identity = identity[:64]
        self.lease = lease
        self.flush_seconds = flush_seconds
        self.watches: dict[str, ClusterWatch] = {}
        self.flushes = 0  # how many flushes have run: progress another thread can wait on

    def run(self, stop: threading.Event) -> None:
        next_rebalance = 0.0
        try:
            while not stop.is_set():
                try:
                    if time.monotonic() >= next_rebalance:
                        self.rebalance()
                        next_rebalance = time.monotonic() + self.lease.total_seconds() / 3
                    self.flush()
                except DatabaseError as exc:  # e.g. PostgreSQL restarting: keep watching, retry next round
                    log.warning("database unavailable, retrying: %s", exc)
                    connection.close()
                    for watch in self.watches.values():
                        watch.relisted()  # a flush may have lost its changes: resync the whole cluster
                stop.wait(self.flush_seconds)
        finally:
            for cluster_id in list(self.watches):
                self._drop(cluster_id)
            ManagedCluster.objects.filter(watcher_owner=self.identity).update(watcher_owner="", watcher_expires_at=None)
            WatcherReplica.objects.filter(identity=self.identity).delete()
            connection.close()

    def rebalance(self) -> None:
        """Renew what we hold, take free clusters up to our fair share, give back the rest."""
        now = timezone.now()
        expires = now + self.lease
        WatcherReplica.objects.update_or_create(identity=self.identity, defaults={"expires_at": expires})
        ManagedCluster.objects.filter(watcher_owner=self.identity).update(watcher_expires_at=expires)
        live = Q(watcher_expires_at__gt=now) & ~Q(watcher_owner="")
        replicas = WatcherReplica.objects.filter(expires_at__gt=now).count()
        share = math.ceil(ManagedCluster.objects.count() / max(replicas, 1))
        mine = self._held()
        for pk in mine[share:]:
            ManagedCluster.objects.filter(pk=pk, watcher_owner=self.identity).update(watcher_owner="")
        for pk in ManagedCluster.objects.exclude(live).values_list("pk", flat=True)[: max(share - len(mine), 0)]:
            ManagedCluster.objects.filter(pk=pk).exclude(live).update(
                watcher_owner=self.identity, watcher_expires_at=expires
            )
        held = {str(pk) for pk in self._held()}
        for cluster_id in set(self.watches) - held:
            self._drop(cluster_id)
        for cluster in ManagedCluster.objects.filter(pk__in=held - set(self.watches)):
            watch = ClusterWatch(cluster_id=str(cluster.pk), name=cluster.name)
            watch.start(cluster.kubeconfig, watch_targets(cluster))
            self.watches[watch.cluster_id] = watch
            log.info("watching cluster %s", cluster.name)

    def flush(self) -> None:
        """One pass per changed gateway (none when one is already queued); a resync for a cluster whose watch had
        to start over."""
        for watch in list(self.watches.values()):
            dirty, relisted = watch.drain()
            if relisted:
                send(TaskName.RESYNC_CLUSTER, watch.cluster_id)
            if dirty:
                changed = Gateway.objects.filter(cluster_id=watch.cluster_id, namespace__in=dirty)
                for gateway_id in changed.values_list("pk", flat=True):
                    if queued_passes.mark_queued(gateway_id) and not send(TaskName.RECONCILE_GATEWAY, gateway_id):
                        queued_passes.started(gateway_id)  # none was queued after all
        self.flushes += 1

    def _held(self) -> list[object]:
        return list(ManagedCluster.objects.filter(watcher_owner=self.identity).values_list("pk", flat=True))

    def _drop(self, cluster_id: str) -> None:
        watch = self.watches.pop(cluster_id)
        watch.stop.set()
        log.info("stopped watching cluster %s", watch.name)
