"""Prometheus metrics for rollouts; ``controlplane.scrape`` serves them on ``/metrics``."""

from __future__ import annotations

from collections.abc import Iterator

from django.db.models import Count
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from rollouts.choices import RolloutPhase
from rollouts.models import Rollout

__all__ = ["RolloutCollector"]

HELP = "Rollouts by phase (every phase, zeros included)."


class RolloutCollector(Collector):
    """Rollouts by phase, computed from the database when scraped."""

    def describe(self) -> Iterator[Metric]:
        """Named up front so registering the collector never queries the database."""
        yield GaugeMetricFamily("rollouts", HELP)

    def collect(self) -> Iterator[Metric]:
        counts = dict(Rollout.objects.values_list("phase").annotate(n=Count("id")))
        rollouts = GaugeMetricFamily("rollouts", HELP, labels=["phase"])
        for phase in RolloutPhase.values:
            rollouts.add_metric([phase], counts.get(phase, 0))
        yield rollouts
