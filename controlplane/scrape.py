"""The ``/metrics`` view, and the fleet gauges it computes at scrape time from the database and Redis.

Computed when scraped, so every API replica reports the same numbers, whichever process changed them.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import redis
from django.conf import settings
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from kombu.transport.redis import Channel
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from redis.backoff import NoBackoff
from redis.retry import Retry

from catalogs.metrics import CatalogCollector
from controlplane.celery import app
from controlplane.http_errors import allow_methods
from controlplane.metrics import scrape_registry
from controlplane.models import ManagedCluster
from gateways.choices import Phase
from gateways.models import Gateway
from rollouts.metrics import RolloutCollector

__all__ = ["FleetCollector", "QueueCollector", "metrics_view", "queue_keys"]

# A scrape must answer even when Redis does not: one try, given up after this long.
REDIS_TIMEOUT_SECONDS = 0.5


RETRYING_HELP = "Gateways whose last pass failed and that will be retried (not yet Failed), by cluster."


class FleetCollector(Collector):
    """Gateways by phase and cluster (every phase, zeros included), those retrying after a failed pass, and
    whether each cluster answered."""

    def describe(self) -> Iterator[Metric]:
        """Named up front so registering the collector never queries the database."""
        yield GaugeMetricFamily("gateways", "Gateways by phase and cluster.")
        yield GaugeMetricFamily("gateways_retrying", RETRYING_HELP)
        yield GaugeMetricFamily("cluster_reachable", "1 when the last probe succeeded, else 0 (never probed too).")

    def collect(self) -> Iterator[Metric]:
        clusters = dict(ManagedCluster.objects.values_list("name", "reachable"))
        counts = {
            (row["cluster__name"], row["phase"]): row["n"]
            for row in Gateway.objects.values("cluster__name", "phase").annotate(n=Count("id"))
        }
        retrying_counts = dict(
            Gateway.objects.filter(failure_count__gt=0).exclude(phase=Phase.FAILED)
            .values_list("cluster__name").annotate(n=Count("id"))
        )
        gateways = GaugeMetricFamily("gateways", "Gateways by phase and cluster.", labels=["phase", "cluster"])
        retrying = GaugeMetricFamily("gateways_retrying", RETRYING_HELP, labels=["cluster"])
        reachable = GaugeMetricFamily(
            "cluster_reachable", "1 when the last probe succeeded, else 0 (never probed too).", labels=["cluster"]
        )
        for name, up in clusters.items():
            reachable.add_metric([name], 1 if up else 0)
            retrying.add_metric([name], retrying_counts.get(name, 0))
            for phase in Phase.values:
                gateways.add_metric([phase, name], counts.get((name, phase), 0))
        yield gateways
        yield retrying
        yield reachable


def queue_keys(queue: str) -> list[str]:
    """The Redis lists kombu keeps a queue in: one per priority step."""
    return [queue if step == 0 else f"{queue}{Channel.sep}{step}" for step in Channel.priority_steps]


@cache
def _broker(url: str) -> redis.Redis:
    return redis.Redis.from_url(
        url, socket_connect_timeout=REDIS_TIMEOUT_SECONDS, socket_timeout=REDIS_TIMEOUT_SECONDS,
        retry=Retry(NoBackoff(), 0),
    )


class QueueCollector(Collector):
    """Messages waiting in each Celery queue; when Redis does not answer, ``celery_broker_up 0`` and no depth."""

    def describe(self) -> Iterator[Metric]:
        """Named up front so registering the collector never touches Redis."""
        yield GaugeMetricFamily("celery_queue_depth", "Messages waiting in the Celery queue.")
        yield GaugeMetricFamily("celery_broker_up", "1 when the broker answered this scrape.")

    def collect(self) -> Iterator[Metric]:
        queues = sorted({app.conf.task_default_queue, *(q.name for q in app.conf.task_queues or ())})
        depth = GaugeMetricFamily("celery_queue_depth", "Messages waiting in the Celery queue.", labels=["queue"])
        try:
            with _broker(settings.CELERY_BROKER_URL).pipeline(transaction=False) as pipe:
                for queue in queues:
                    for key in queue_keys(queue):
                        pipe.llen(key)
                lengths = iter(pipe.execute())
        except redis.RedisError:
            yield GaugeMetricFamily("celery_broker_up", "1 when the broker answered this scrape.", value=0)
            return
        for queue in queues:
            depth.add_metric([queue], sum(next(lengths) for _ in queue_keys(queue)))
        yield depth
        yield GaugeMetricFamily("celery_broker_up", "1 when the broker answered this scrape.", value=1)


SCRAPED = (CatalogCollector(), FleetCollector(), QueueCollector(), RolloutCollector())


@allow_methods("GET", "HEAD")
def metrics_view(request: HttpRequest) -> HttpResponse:
    return HttpResponse(generate_latest(scrape_registry(SCRAPED)), content_type=CONTENT_TYPE_LATEST)
