"""The fleet sampler on PostgreSQL: one sample per cluster per slot, counts by phase, and the pruning."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings

from controlplane.models import FleetSample, ManagedCluster
from gateways.choices import Phase
from gateways.fleet_sampling import slot_start, take_sample
from gateways.models import Gateway
from workers.tasks.fleet import sample_fleet

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

NOW = datetime(2026, 12, 2, 12, 0, 30, tzinfo=UTC)
KUBECONFIG = """\
apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "http://127.0.0.1:9"}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
current-context: c
users: [{name: u, user: {token: t}}]
"""


def cluster(name: str) -> ManagedCluster:
    return ManagedCluster.objects.create(name=name, kubeconfig=KUBECONFIG, base_domain=f"{name}.example.test")


def gateway(owner, on: ManagedCluster, name: str, phase: Phase) -> None:
    """A gateway in ``phase`` (set behind the reconciler's back: no worker runs here)."""
    row = Gateway(owner=owner, cluster=on, name=name, image="r.example/gw:1", supervisor_image="r.example/sv:1")
    row.assign_namespace()
    row.save()
    Gateway.objects.filter(pk=row.pk).update(phase=phase)


@pytest.fixture
def fleet() -> tuple[ManagedCluster, ManagedCluster]:
    owner = get_user_model().objects.create_user("tenant")
    east, west = cluster("east"), cluster("west")
    for name, phase in (("a", Phase.RUNNING), ("b", Phase.RUNNING), ("c", Phase.FAILED)):
        gateway(owner, east, name, phase)
    return east, west


def test_slots_are_whole_multiples_of_the_interval() -> None:
    assert slot_start(NOW, 60) == datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
    assert slot_start(NOW, 3600) == datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
    assert slot_start(NOW + timedelta(seconds=29), 60) == slot_start(NOW, 60)
    assert slot_start(NOW + timedelta(seconds=30), 60) == datetime(2026, 12, 2, 12, 1, tzinfo=UTC)


def test_a_sample_counts_each_clusters_gateways_by_phase(fleet) -> None:
    east, west = fleet
    run = take_sample(NOW)
    assert (run.written, run.pruned) == (2, 0)
    samples = {s.cluster_id: s for s in FleetSample.objects.all()}
    assert samples[east.pk].counts == {Phase.RUNNING: 2, Phase.FAILED: 1}
    assert samples[west.pk].counts == {}  # a cluster with no gateway is sampled too: its lines show 0
    assert {s.at for s in samples.values()} == {datetime(2026, 12, 2, 12, 0, tzinfo=UTC)}


def test_no_second_sample_within_an_interval(fleet) -> None:
    take_sample(NOW)
    Gateway.objects.update(phase=Phase.DEGRADED)
    assert take_sample(NOW + timedelta(seconds=29)).written == 0
    assert FleetSample.objects.count() == 2
    assert take_sample(NOW + timedelta(seconds=30)).written == 2  # the next slot
    assert FleetSample.objects.count() == 4


@override_settings(FLEET_SAMPLE_RETENTION_HOURS=2)
def test_samples_older_than_the_retention_are_pruned(fleet) -> None:
    east, _west = fleet
    old = [FleetSample(at=NOW - timedelta(hours=hours), cluster=east, counts={}) for hours in (3, 2.5, 1.5)]
    FleetSample.objects.bulk_create(old)
    run = take_sample(NOW)
    assert (run.written, run.pruned) == (2, 2)
    assert sorted(FleetSample.objects.values_list("at", flat=True)) == [
        NOW - timedelta(hours=1.5),
        slot_start(NOW, 60),
        slot_start(NOW, 60),
    ]


def test_the_beat_task_samples_now(fleet) -> None:
    sample_fleet.apply()
    sample_fleet.apply()
    assert FleetSample.objects.count() in (2, 4)  # 4 only when the two runs straddle a slot boundary
    assert FleetSample.objects.order_by("at").last().at.second == 0
