"""Prometheus gauges for gateways and clusters, computed from the database when ``/metrics`` is scraped."""

from __future__ import annotations

from collections.abc import Iterator

from django.db.models import Count
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from controlplane.models import ManagedCluster
from gateways.choices import Phase
from gateways.models import Gateway

__all__ = ["FleetCollector"]

RETRYING_HELP = "Gateways whose last pass failed and that will be retried (not yet Failed), by cluster."
WAITING_HELP = "Gateways whose change waits for their cluster's maintenance window, by cluster."


class FleetCollector(Collector):
    """Gateways by phase and cluster (every phase, zeros included), those retrying after a failed pass, those
    waiting for a maintenance window, and whether each cluster answered."""

    def describe(self) -> Iterator[Metric]:
        """Named up front so registering the collector never queries the database."""
        yield GaugeMetricFamily("gateways", "Gateways by phase and cluster.")
        yield GaugeMetricFamily("gateways_retrying", RETRYING_HELP)
        yield GaugeMetricFamily("gateways_waiting_for_window", WAITING_HELP)
        yield GaugeMetricFamily("cluster_reachable", "1 when the last probe succeeded, else 0 (never probed too).")

    def collect(self) -> Iterator[Metric]:
        clusters = dict(ManagedCluster.objects.values_list("name", "reachable"))
        counts = {
            (row["cluster__name"], row["phase"]): row["n"]
            for row in Gateway.objects.values("cluster__name", "phase").annotate(n=Count("id"))
        }
        retrying_counts = dict(
            Gateway.objects.filter(failure_count__gt=0)
            .exclude(phase=Phase.FAILED)
            .values_list("cluster__name")
            .annotate(n=Count("id"))
        )
        waiting_counts = dict(
            Gateway.objects.filter(window_held_until__isnull=False).values_list("cluster__name").annotate(n=Count("id"))
        )
        gateways = GaugeMetricFamily("gateways", "Gateways by phase and cluster.", labels=["phase", "cluster"])
        waiting = GaugeMetricFamily("gateways_waiting_for_window", WAITING_HELP, labels=["cluster"])
        retrying = GaugeMetricFamily("gateways_retrying", RETRYING_HELP, labels=["cluster"])
        reachable = GaugeMetricFamily(
            "cluster_reachable", "1 when the last probe succeeded, else 0 (never probed too).", labels=["cluster"]
        )
        for name, up in clusters.items():
            reachable.add_metric([name], 1 if up else 0)
            retrying.add_metric([name], retrying_counts.get(name, 0))
            waiting.add_metric([name], waiting_counts.get(name, 0))
            for phase in Phase.values:
                gateways.add_metric([phase, name], counts.get((name, phase), 0))
        yield gateways
        yield retrying
        yield waiting
        yield reachable
