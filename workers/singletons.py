"""Per-worker-process singletons built from settings: the helm runner, the clusters' API request budget,
and gateway charts loaded once each.

A remote (``oci://``) chart that cannot be pulled is ``ChartUnavailable``, not a broken chart: the worker
keeps running, the releases on it wait, and the pull is tried again with backoff (GATEWAY_RETRY_*), at most
once per delay per process however many passes ask for it meanwhile.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path

import redis
from django.conf import settings
from django.utils import timezone

from controlplane.metrics import count_helm
from workers.charts import Chart
from workers.drivers.errors import DriverError
from workers.drivers.helm import Helm, HelmConfig
from workers.drivers.request_budget import RedisRequestBudget, RequestBudget
from workers.reconcile.retry import RetryPolicy

__all__ = ["ChartUnavailable", "chart", "gateway_chart", "helm", "pull_policy", "request_budget"]


class ChartUnavailable(Exception):
    """A remote chart this process could not pull; it is not asked for again before ``retry_at``."""

    def __init__(self, message: str, retry_at: datetime) -> None:
        super().__init__(message)
        self.message = message
        self.retry_at = retry_at


@dataclass(frozen=True)
class _FailedPull:
    failures: int
    retry_at: datetime
    message: str


# (reference, version) -> the last consecutive failed pulls of that chart in this process.
_failed_pulls: dict[tuple[str, str | None], _FailedPull] = {}


@cache
def helm() -> Helm:
    home = Path(settings.HELM_HOME)
    return Helm(
        HelmConfig(
            binary=Path(settings.HELM_BINARY),
            timeout_seconds=float(settings.HELM_TIMEOUT_SECONDS),
            cache_home=home / "cache",
            config_home=home / "config",
            data_home=home / "data",
            on_invoke=count_helm,
        )
    )


@cache
def request_budget() -> RequestBudget:
    """CLUSTER_API_CONCURRENCY requests in flight per cluster, counted in the cache's Redis."""
    location = settings.CACHES["default"]["LOCATION"]
    client = redis.Redis.from_url(location, socket_connect_timeout=1, socket_timeout=1)
    return RedisRequestBudget(client, limit=settings.CLUSTER_API_CONCURRENCY)


def pull_policy() -> RetryPolicy:
    """How long a release waits for a registry it could not reach: GATEWAY_RETRY_* backoff, never given up."""
    return RetryPolicy(
        base=timedelta(seconds=settings.GATEWAY_RETRY_BASE_SECONDS),
        cap=timedelta(seconds=settings.GATEWAY_RETRY_CAP_SECONDS),
        max_failures=None,
    )


def _pull(ref: str, version: str | None) -> Path:
    """The pulled archive of a remote chart; ChartUnavailable when the pull fails or is backing off."""
    key, now = (ref, version), timezone.now()
    failed = _failed_pulls.get(key)
    if failed is not None and now < failed.retry_at:
        raise ChartUnavailable(failed.message, failed.retry_at)
    # One directory per reference and version, so the archive found there is this chart's.
    digest = hashlib.sha256(f"{ref} {version or ''}".encode()).hexdigest()[:16]
    try:
        archive = helm().pull(ref, Path(settings.HELM_HOME) / "charts" / digest, version=version)
    except DriverError as exc:
        failures = failed.failures + 1 if failed else 1
        retry_at = timezone.now() + pull_policy().delay(failures)  # from the end: helm retries a 5xx itself
        message = f"cannot pull {ref}{' ' + version if version else ''}: {exc.message}"
        _failed_pulls[key] = _FailedPull(failures, retry_at, message)
        raise ChartUnavailable(message, retry_at) from exc
    _failed_pulls.pop(key, None)
    return archive


@cache
def chart(ref: str, version: str | None) -> Chart:
    """Load a chart once per worker: pull a remote one into the helm cache (HELM_HOME/charts), read its defaults.

    An `oci://` chart is pulled once per worker start and reference; every pass uses the pulled archive.
    A failure is not cached: the next call tries again (a failed pull only after its backoff).
    Raises ChartUnavailable when a remote chart cannot be pulled, DriverError when a chart cannot be read.
    """
    if ref.startswith("oci://"):
        ref, version = str(_pull(ref, version)), None
    meta = helm().show_chart(ref, version=version)
    defaults = helm().show_values(ref, version=version)
    return Chart(ref=ref, version=version, chart_version=str(meta.get("version", "")), defaults=defaults)


def gateway_chart() -> Chart:
    """The bootstrap chart of the settings (GATEWAY_CHART, GATEWAY_CHART_VERSION)."""
    return chart(settings.GATEWAY_CHART, settings.GATEWAY_CHART_VERSION or None)
