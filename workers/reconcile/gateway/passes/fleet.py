"""The fleet resync of one cluster: one snapshot, every gateway judged from memory, helm only where needed.

A gateway whose release is deployed, current and present (and, with drift detection, whose objects
match its manifest) gets its status from the snapshot, and a write only when that status changed.
Every other gateway (absent, out of sync, drifted, failed, pending, deleting, missing its namespace)
is handed to a full pass. A cluster that does not answer opens its circuit breaker, and its gateways
are marked ``ClusterReachable=False`` without losing their phase.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.utils import timezone

from controlplane.flavours import Flavour
from controlplane.models import ManagedCluster
from gateways.models import Gateway
from workers import breaker, releases, singletons
from workers.charts import Chart
from workers.drivers import errors
from workers.drivers.kube import KubeClient
from workers.reconcile.gateway.backend_tls.judge import BackendTlsVerdict, judge_backend_tls
from workers.reconcile.gateway.observation.assess import assess
from workers.reconcile.gateway.observation.drift import DRIFT_KINDS
from workers.reconcile.gateway.observation.state import State
from workers.reconcile.gateway.observation.view import (
    BACKEND_TLS_KIND,
    WORKLOAD_KINDS,
    ClusterSnapshot,
    GatewayView,
    take_snapshot,
)
from workers.reconcile.gateway.outcome import GatewayOutcome
from workers.reconcile.gateway.passes.loop import report_deployed, settled, unreachable
from workers.reconcile.gateway.passes.publish import changed_fields, publish
from workers.reconcile.gateway.passes.request_from_rows import MANAGED_BY, build_request
from workers.reconcile.gateway.request import DriftMode, GatewayRequest

__all__ = ["ResyncReport", "resync_cluster", "snapshot_kinds"]

log = logging.getLogger(__name__)


@dataclass
class ResyncReport:
    """What one resync did: gateways seen, status rows written, passes enqueued, and any outage."""

    gateways: int = 0
    written: int = 0
    passes: int = 0
    rejudged: int = 0  # releases judged anew rather than by a verdict this process remembers
    outage: str | None = None


def snapshot_kinds(cluster: ManagedCluster, drift_detection: DriftMode) -> frozenset[str]:
    """Every kind the charts render when drift is compared; else only the workloads and the served routes."""
    routes = {"GRPCRoute", BACKEND_TLS_KIND} if cluster.gateway_api else set()
    if drift_detection is not DriftMode.DISABLED:
        return frozenset(DRIFT_KINDS) | routes
    return WORKLOAD_KINDS | routes | ({"Route"} if cluster.flavour == Flavour.OPENSHIFT else set())


def _held_by_a_pass(gateway: Gateway, now: datetime) -> bool:
    return gateway.lease_expires_at is not None and gateway.lease_expires_at > now


def _judge(request: GatewayRequest, snapshot: ClusterSnapshot, chart: Chart) -> GatewayOutcome | None:
    """The status of a gateway that needs no pass, or None when it needs one."""
    early = settled(request)
    if early is not None:
        return early
    view = snapshot.view(request)
    if _backend_tls_needs_a_pass(request, view, snapshot):
        return None  # only a pass writes or removes the BackendTLSPolicy and its ConfigMap
    if view.namespace_present and assess(request, view, chart.chart_version) is State.IN_SYNC:
        return report_deployed(request, view)
    return None


def _backend_tls_needs_a_pass(request: GatewayRequest, view: GatewayView, snapshot: ClusterSnapshot) -> bool:
    """Whether the route-owned TLS objects are missing, stale (a rotated server Secret) or left behind."""
    if BACKEND_TLS_KIND not in snapshot.kinds:  # not listed: the cluster serves no Gateway API
        return request.backend_tls_secret is not None and view.backend_tls_policy(request.release) is None
    verdict = judge_backend_tls(
        wanted=request.backend_tls_secret is not None,
        secret_version=view.server_secret_version,
        policy=view.backend_tls_policy(request.release),
        configmap=view.backend_ca,
    )
    return verdict is not BackendTlsVerdict.IN_STEP


def resync_cluster(cluster_id: str, enqueue: Callable[[str], object]) -> ResyncReport:
    """Judge every gateway of a cluster from one snapshot; ``enqueue`` a full pass where one is needed."""
    report = ResyncReport()
    cluster = ManagedCluster.objects.filter(pk=cluster_id).first()
    if cluster is None:
        return report
    gateways = list(Gateway.objects.filter(cluster=cluster).select_related("release"))
    report.gateways = len(gateways)
    snapshot: ClusterSnapshot | None = None
    if breaker.is_open(cluster):
        report.outage = breaker.outage(cluster)
    else:
        try:
            with KubeClient(cluster.kubeconfig, budget=singletons.request_budget()) as kube:
                kinds = snapshot_kinds(cluster, DriftMode(settings.GATEWAY_DRIFT_DETECTION))
                snapshot = take_snapshot(kube, f"{MANAGED_BY}/managed=true", kinds)
                report.rejudged = snapshot.rejudged
        except errors.DriverError as exc:
            if not errors.is_outage(exc):
                log.warning("resync of cluster %s: %s; every gateway gets a pass", cluster.name, exc)
                for gateway in gateways:
                    enqueue(str(gateway.pk))
                report.passes = len(gateways)
                return report
            report.outage = str(exc)
            breaker.open_circuit(cluster, report.outage)
    now = timezone.now()
    for gateway in gateways:
        gateway.cluster = cluster
        deleting = gateway.deletion_requested_at is not None
        backing_off = not deleting and gateway.next_attempt_at is not None and gateway.next_attempt_at > now
        if _held_by_a_pass(gateway, now) or (backing_off and report.outage is None):
            continue  # a pass is on it, or one is queued for the end of its backoff
        chart, release = releases.load(gateway)
        request = build_request(gateway, chart, now, release)
        if snapshot is None:  # no snapshot without an outage, which report.outage names
            outcome: GatewayOutcome | None = unreachable(request, str(report.outage))
        else:
            outcome = None if deleting or gateway.pass_requested else _judge(request, snapshot, chart)
        if outcome is None:
            enqueue(str(gateway.pk))
            report.passes += 1
        elif changed_fields(gateway, request, outcome, now) and publish(request, outcome, now, lease_token=None):
            report.written += 1
    log.info(
        "resync of cluster %s: %d gateways, %d written, %d passes, %d judged anew%s",
        cluster.name,
        report.gateways,
        report.written,
        report.passes,
        report.rejudged,
        f", outage: {report.outage}" if report.outage else "",
    )
    return report
