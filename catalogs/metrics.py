"""Prometheus metrics for catalogs; ``controlplane.scrape`` serves them on ``/metrics``.

The gauges are computed when scraped, from the database and the shared store, so every replica
reports the same numbers; the store's two are left out of a scrape when the store does not answer.
The cleanup-failure counter is summed across processes (see `controlplane.metrics`).
"""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client import Counter
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

__all__ = ["CLEANUP_FAILURES", "CatalogCollector"]

CLEANUP_FAILURES = Counter(
    "catalog_content_cleanup_failures", "Failed attempts to remove catalog content from the store."
)


class CatalogCollector(Collector):
    """Catalogs known, content entries stored, and entries no catalog or history references (orphans)."""

    def describe(self) -> Iterator[Metric]:
        """Named up front so registering the collector never queries the database."""
        yield GaugeMetricFamily("catalogs_known", "Catalogs in the database.")
        yield GaugeMetricFamily("catalog_content_entries", "Content entries in the store.")
        yield GaugeMetricFamily("catalog_content_orphans", "Content entries no catalog or catalog history references.")

    def collect(self) -> Iterator[Metric]:
        from catalogs import store
        from catalogs.history import referenced_digests
        from catalogs.models import Catalog

        yield GaugeMetricFamily("catalogs_known", "Catalogs in the database.", value=Catalog.objects.count())
        referenced = referenced_digests()
        try:
            stored = {entry.digest for entry in store.get().entries()}
        except store.StoreError:
            return
        yield GaugeMetricFamily("catalog_content_entries", "Content entries in the store.", value=len(stored))
        yield GaugeMetricFamily(
            "catalog_content_orphans", "Content entries no catalog or catalog history references.",
            value=len(stored - referenced),
        )

