"""The ``/metrics`` view: the queue gauges it computes from Redis when scraped, and the collectors the apps
register (``controlplane.metrics.scraped_by_api``, from their ``AppConfig.ready``), which compute theirs from the
database. Computed when scraped, so every API replica reports the same numbers, whichever process changed them.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import redis
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from kombu.transport.redis import Channel
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from redis.backoff import NoBackoff
from redis.retry import Retry

from controlplane.celery import app
from controlplane.http_errors import allow_methods
from controlplane.metrics import scrape_registry, scraped_collectors

__all__ = ["QueueCollector", "metrics_view", "queue_keys", "scraped"]

# A scrape must answer even when Redis does not: one try, given up after this long.
REDIS_TIMEOUT_SECONDS = 0.5


def queue_keys(queue: str) -> list[str]:
    """The Redis lists kombu keeps a queue in: one per priority step."""
    return [queue if step == 0 else f"{queue}{Channel.sep}{step}" for step in Channel.priority_steps]


@cache
def _broker(url: str) -> redis.Redis:
    return redis.Redis.from_url(
        url,
        socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
        socket_timeout=REDIS_TIMEOUT_SECONDS,
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


QUEUES = QueueCollector()


def scraped() -> tuple[Collector, ...]:
    """What a scrape reads: the queues, and every collector the apps registered."""
    return (QUEUES, *scraped_collectors())


@allow_methods("GET", "HEAD")
def metrics_view(request: HttpRequest) -> HttpResponse:
    return HttpResponse(generate_latest(scrape_registry(scraped())), content_type=CONTENT_TYPE_LATEST)
