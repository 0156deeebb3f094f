"""Prometheus metrics for notifications; ``controlplane.scrape`` serves them on ``/metrics``."""

from __future__ import annotations

from collections.abc import Iterator

from django.db.models import Count
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from notifications.choices import DeliveryStatus
from notifications.models import Delivery, PendingEvent

__all__ = ["DeliveryCollector"]

DELIVERIES_HELP = "Notification deliveries by status (every status, zeros included)."
PENDING_HELP = "Recorded events not yet matched against the subscriptions (the outbox)."


class DeliveryCollector(Collector):
    """Deliveries by status and the outbox's length, computed from the database when scraped."""

    def describe(self) -> Iterator[Metric]:
        """Named up front so registering the collector never queries the database."""
        yield GaugeMetricFamily("notification_deliveries", DELIVERIES_HELP)
        yield GaugeMetricFamily("notification_events_pending", PENDING_HELP)

    def collect(self) -> Iterator[Metric]:
        counts = dict(Delivery.objects.order_by().values_list("status").annotate(n=Count("id")))
        deliveries = GaugeMetricFamily("notification_deliveries", DELIVERIES_HELP, labels=["status"])
        for status in DeliveryStatus.values:
            deliveries.add_metric([status], counts.get(status, 0))
        yield deliveries
        yield GaugeMetricFamily("notification_events_pending", PENDING_HELP, value=PendingEvent.objects.count())
