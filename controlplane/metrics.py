"""Counters and histograms the workers record, and the registry a scrape of ``/metrics`` reads.

With ``PROMETHEUS_MULTIPROC_DIR`` set (before ``prometheus_client`` is imported; the directory must
exist and be shared by the API and worker processes of a host), every process writes its figures to
files there and a scrape sums them with ``MultiProcessCollector``. Unset, a scrape sees only the
figures of the process that serves it: the workers' counters then never reach ``/metrics``.

Importable by the API and the workers alike: it imports no Django and no ``workers``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum

from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram
from prometheus_client.core import Metric
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead
from prometheus_client.registry import Collector

__all__ = [
    "MULTIPROC_DIR",
    "PassOutcome",
    "count_helm",
    "process_exited",
    "scrape_registry",
    "scraped_by_api",
    "scraped_collectors",
    "timed_pass",
]

MULTIPROC_DIR = os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


class PassOutcome(StrEnum):
    """How a reconcile pass ended; the closed set of the ``result`` label."""

    SUCCESS = "success"  # saved, no failure counted, nothing more is pending
    REQUEUED = "requeued"  # saved, no failure counted, another pass is wanted (progress to watch)
    FAILED = "failed"  # the pass counted a failure (retried with backoff, or stalled or blocked), or the task raised
    STALE = "stale"  # the row changed under the pass, or its lease was taken over; its outcome was not saved
    SKIPPED = "skipped"  # another pass held the lease, the cluster had no free slot, or it was not due
    UNREACHABLE = "unreachable"  # the cluster did not answer; nothing was counted against the object


PASSES = Counter("reconcile_passes", "Reconcile passes that ended, by kind and result.", ["kind", "result"])
PASS_DURATION = Histogram(
    "reconcile_pass_duration_seconds",
    "Wall time of one reconcile pass.",
    ["kind"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, float("inf")),
)
HELM_INVOCATIONS = Counter("helm_invocations", "helm processes started, by subcommand.", ["command"])
# Collectors the API computes at scrape time, registered by the apps (AppConfig.ready), one per class.
_SCRAPED: dict[type[Collector], Collector] = {}


def scraped_by_api(collector: Collector) -> None:
    """Have ``/metrics`` read ``collector`` (an app's database gauges); the controlplane imports no app."""
    _SCRAPED.setdefault(type(collector), collector)


def scraped_collectors() -> tuple[Collector, ...]:
    return tuple(_SCRAPED.values())


@dataclass
class Pass:
    """Set ``result`` before the block ends; a block that raises counts as failed."""

    result: PassOutcome = PassOutcome.SUCCESS


@contextmanager
def timed_pass(kind: str) -> Iterator[Pass]:
    """Time the block as one pass of ``kind`` (gateway, catalog) and count it by its result."""
    pass_, started = Pass(), time.monotonic()
    try:
        yield pass_
    except BaseException:
        pass_.result = PassOutcome.FAILED
        raise
    finally:
        PASS_DURATION.labels(kind=kind).observe(time.monotonic() - started)
        PASSES.labels(kind=kind, result=pass_.result).inc()


def count_helm(command: str) -> None:
    """The helm driver's ``on_invoke`` callback."""
    HELM_INVOCATIONS.labels(command=command).inc()


def process_exited(pid: int) -> None:
    """Drop a dead process's live-gauge files. Its counters stay: they must never go down."""
    if MULTIPROC_DIR:
        mark_process_dead(pid, MULTIPROC_DIR)


class _ThisProcess(Collector):
    def collect(self) -> Iterable[Metric]:
        return REGISTRY.collect()


def scrape_registry(collectors: Iterable[Collector], multiproc_dir: str | None = MULTIPROC_DIR) -> CollectorRegistry:
    """A registry of every process's figures (or this process's alone) plus scrape-time ``collectors``."""
    registry = CollectorRegistry(auto_describe=False)
    if multiproc_dir:
        MultiProcessCollector(registry, path=multiproc_dir)
    else:
        registry.register(_ThisProcess())
    for collector in collectors:
        registry.register(collector)
    return registry
