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

from cluster_vocabulary.kubernetes import ConditionStatus

__all__ = ["CLEANUP_FAILURES", "CatalogCollector"]

CLEANUP_FAILURES = Counter(
    "catalog_content_cleanup_failures", "Failed attempts to remove catalog content from the store."
)


SERVING_HELP = "1 when the catalog's Serving condition is True, else 0; reason is the condition's reason."


class CatalogCollector(Collector):
    """Catalogs known, whether each serves, content entries stored, and entries no catalog or history
    references (orphans)."""

    def describe(self) -> Iterator[Metric]:
        """Named up front so registering the collector never queries the database."""
        yield GaugeMetricFamily("catalogs_known", "Catalogs in the database.")
        yield GaugeMetricFamily("catalog_serving", SERVING_HELP)
        yield GaugeMetricFamily("catalog_content_entries", "Content entries in the store.")
        yield GaugeMetricFamily("catalog_content_orphans", "Content entries no catalog or catalog history references.")

    def collect(self) -> Iterator[Metric]:
        from catalogs import store
        from catalogs.choices import ConditionType
        from catalogs.history import referenced_digests
        from catalogs.models import Catalog

        serving = GaugeMetricFamily("catalog_serving", SERVING_HELP, labels=["catalog", "reason"])
        known = 0
        for name, conditions in Catalog.objects.values_list("name", "conditions"):
            known += 1
            condition = next((c for c in conditions if c.get("type") == ConditionType.SERVING), {})
            up = condition.get("status") == ConditionStatus.TRUE
            serving.add_metric([name, condition.get("reason", "")], 1 if up else 0)
        yield GaugeMetricFamily("catalogs_known", "Catalogs in the database.", value=known)
        yield serving
        referenced = referenced_digests()
        try:
            stored = {entry.digest for entry in store.get().entries()}
        except store.StoreError:
            return
        yield GaugeMetricFamily("catalog_content_entries", "Content entries in the store.", value=len(stored))
        yield GaugeMetricFamily(
            "catalog_content_orphans",
            "Content entries no catalog or catalog history references.",
            value=len(stored - referenced),
        )
