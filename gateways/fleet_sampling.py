"""Sample the fleet for the console's plots: how many gateways each cluster has in each phase.

Run by beat every ``FLEET_SAMPLE_INTERVAL_SECONDS`` (``workers.tasks.sample_fleet``). A sample belongs
to the slot its time falls in, and a cluster has at most one sample per slot, so a task run twice in
one interval (two beats, a retry) writes nothing more. Samples older than
``FLEET_SAMPLE_RETENTION_HOURS`` are deleted by the same run.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db.models import Count

from controlplane.models import FleetSample, ManagedCluster
from gateways.models import Gateway

__all__ = ["SampleRun", "slot_start", "take_sample"]


@dataclass(frozen=True)
class SampleRun:
    written: int
    pruned: int


def slot_start(now: datetime, interval_seconds: int) -> datetime:
    """The start of the sampling slot ``now`` falls in: a whole multiple of the interval since the epoch."""
    seconds = int(now.timestamp()) // interval_seconds * interval_seconds
    return datetime.fromtimestamp(seconds, tz=UTC)


def take_sample(now: datetime) -> SampleRun:
    """Write one sample per cluster for ``now``'s slot (unless there is one), then prune expired samples."""
    at = slot_start(now, settings.FLEET_SAMPLE_INTERVAL_SECONDS)
    counts: dict[object, dict[str, int]] = defaultdict(dict)
    rows = Gateway.objects.order_by().values_list("cluster_id", "phase").annotate(n=Count("id"))
    for cluster_id, phase, n in rows:
        counts[cluster_id][phase] = n
    sampled = FleetSample.objects.filter(at=at).values_list("cluster_id", flat=True)
    missing = ManagedCluster.objects.exclude(id__in=sampled).values_list("id", flat=True)
    # A concurrent run may still win the race for a slot: the unique constraint turns its row away.
    created = FleetSample.objects.bulk_create(
        [FleetSample(at=at, cluster_id=cluster_id, counts=counts.get(cluster_id, {})) for cluster_id in missing],
        ignore_conflicts=True,
    )
    expired = now - timedelta(hours=settings.FLEET_SAMPLE_RETENTION_HOURS)
    pruned, _ = FleetSample.objects.filter(at__lt=expired).delete()
    return SampleRun(written=len(created), pruned=pruned)
