"""The worker's side of releases and rollouts, with the real helm binary and PostgreSQL (no cluster I/O):
first-load validation of a release, merged overrides, and controller steps that are never applied twice."""

from __future__ import annotations

import pytest

from controlplane.models import ManagedCluster
from gateways.models import Gateway, GatewayRelease
from rollouts.models import Rollout
from rollouts.operations import create_rollout
from tests.fixtures.charts import MIRROR_CHART
from workers import releases, singletons
from workers.reconcile.gateway.passes.request_from_rows import build_request
from workers.reconcile.rollout.controller import advance

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def fresh_charts():
    singletons.chart.cache_clear()
    yield
    singletons.chart.cache_clear()


def release(name: str, chart: str = str(MIRROR_CHART), **fields) -> GatewayRelease:
    """Saved without ``full_clean``: as if the API could not read the chart (a remote one)."""
    return GatewayRelease.objects.create(name=name, chart=chart, **fields)


@pytest.mark.parametrize(
    ("chart", "values", "status", "message"),
    [
        (str(MIRROR_CHART), {"networkPolicy": {"enabled": True}}, "Ready", ""),
        (str(MIRROR_CHART), {"networkPolicy": {"enabld": True}}, "Invalid", "networkPolicy.enabld"),
        (str(MIRROR_CHART), {"networkPolicy": {"enabled": "yes"}}, "Invalid", "the chart has bool"),
        ("/nonexistent/chart", {}, "Invalid", "cannot load the chart"),
    ],
)
def test_the_first_load_validates_the_release_and_records_the_verdict(chart, values, status, message) -> None:
    checked = releases.validate(release("r", chart, values=values))
    assert checked.status == status and message in checked.message
    assert GatewayRelease.objects.get(pk=checked.pk).validated_at is not None
    assert checked.chart_version == ("0.1.0" if chart == str(MIRROR_CHART) else "")


def test_a_gateway_gets_the_default_its_release_overrides_and_stalls_on_an_invalid_one(alice, cluster) -> None:
    gateway = Gateway(owner=alice, cluster=cluster, name="edge", image="r.test/gw:1", supervisor_image="r.test/s:1")
    gateway.assign_namespace()
    gateway.save()
    assert gateway.release is None  # no default yet: the worker makes the bootstrap one from the settings
    chart, inputs = releases.load(gateway)
    bootstrap = GatewayRelease.objects.get(default=True)
    assert bootstrap.name.startswith("bootstrap-") and Gateway.objects.get(pk=gateway.pk).release == bootstrap
    tuned = release("tuned", values={"networkPolicy": {"enabled": True}, "image": {"pullPolicy": "Always"}})
    Gateway.objects.filter(pk=gateway.pk).update(release=tuned)
    gateway = Gateway.objects.select_related("cluster", "release").get(pk=gateway.pk)
    chart, inputs = releases.load(gateway)
    request = build_request(gateway, chart, gateway.created_at, inputs)
    assert request.values["image"] == {"pullPolicy": "Always", "repository": "r.test/gw", "tag": "1"}
    # The cluster decides the sandbox NetworkPolicy: off (the default) wins over the release's override.
    assert request.values["networkPolicy"] == {"enabled": False} and request.release_id == str(tuned.pk)
    ManagedCluster.objects.filter(pk=cluster.pk).update(network_policy=True)
    gateway = Gateway.objects.select_related("cluster", "release").get(pk=gateway.pk)
    assert build_request(gateway, chart, gateway.created_at, inputs).values["networkPolicy"] == {"enabled": True}
    broken = release("broken", values={"nope": 1})
    Gateway.objects.filter(pk=gateway.pk).update(release=broken)
    gateway = Gateway.objects.select_related("cluster", "release").get(pk=gateway.pk)
    chart, inputs = releases.load(gateway)
    request = build_request(gateway, chart, gateway.created_at, inputs)
    assert request.values is None and "Release broken is Invalid" in request.values_error


@pytest.fixture
def fleet(alice, cluster) -> list[Gateway]:
    v1 = release("v1", default=True)
    gateways = []
    for index in range(3):
        gateway = Gateway(
            owner=alice,
            cluster=cluster,
            name=f"g{index}",
            image="r.test/gw:1",
            supervisor_image="r.test/s:1",
            release=v1,
        )
        gateway.assign_namespace()
        gateway.save()
        gateways.append(gateway)
    return gateways


def test_a_rollout_to_an_invalid_release_halts_before_touching_a_gateway(fleet) -> None:
    bad = release("bad", values={"nope": 1})
    rollout = create_rollout(Rollout(name="r", target_release=bad, wave_percentages=[100]))
    assert advance(str(rollout.pk)).phase == "Halted"
    rollout.refresh_from_db()
    assert rollout.conditions[0]["reason"] == "ReleaseInvalid" and "nope" in rollout.conditions[0]["message"]
    assert set(Gateway.objects.values_list("release__name", "generation")) == {("v1", 1)}


def test_controller_steps_start_at_most_max_parallel_once_and_keep_spec_changes(fleet) -> None:
    v2 = release("v2")
    rollout = create_rollout(Rollout(name="r", target_release=v2, wave_percentages=[100], max_parallel=2))
    assert advance(str(rollout.pk)).phase == "Progressing"  # validated the release; nothing started yet
    assert not Gateway.objects.filter(release=v2).exists()
    fleet[0].image = "r.test/gw:2"  # a user's change, saved while the rollout runs
    fleet[0].save()
    for _ in range(3):  # replayed steps: nobody is healthy yet, so nobody else starts and nobody restarts
        advance(str(rollout.pk))
    moved = {g.name: g for g in Gateway.objects.filter(release=v2)}
    assert sorted(moved) == ["g0", "g1"]
    assert (moved["g0"].generation, moved["g0"].image) == (3, "r.test/gw:2") and moved["g1"].generation == 2
    assert rollout.events.filter(reason="UpgradeStarted").count() == 2
    targets = {t.gateway_name: t for t in rollout.targets.all()}
    assert targets["g0"].generation == 3 and targets["g0"].previous_release.name == "v1"
    assert targets["g2"].state == "pending"


def test_a_rollout_drops_the_overrides_the_image_policy_no_longer_allows_and_keeps_the_others(fleet) -> None:
    """g0's override is outside its cluster's new policy, g1's inside it, g2 has none: only g0 changes images."""
    Gateway.objects.filter(pk=fleet[0].pk).update(image="x.test/gw:1", supervisor_image="x.test/s:1")
    cluster = fleet[0].cluster
    cluster.image_policy = {"overrides": "allow", "repositories": ["r.test/gw"]}
    cluster.save()
    Gateway.objects.filter(pk=fleet[1].pk).update(supervisor_image="")  # gateway image override only: allowed
    Gateway.objects.filter(pk=fleet[2].pk).update(image="", supervisor_image="")
    not_allowed = Gateway.objects.get(pk=fleet[0].pk).conditions
    assert [(c["status"], c["reason"]) for c in not_allowed if c["type"] == "ImagePolicy"] == [("False", "NotAllowed")]
    v2 = release("v2", image="r.test/gw:2", supervisor_image="r.test/s:2")
    rollout = create_rollout(Rollout(name="r", target_release=v2, wave_percentages=[100], max_parallel=3))
    advance(str(rollout.pk))
    advance(str(rollout.pk))
    moved = {g.name: g for g in Gateway.objects.filter(release=v2)}
    assert sorted(moved) == ["g0", "g1", "g2"]
    assert {name: g.desired_images() for name, g in moved.items()} == {
        "g0": ("r.test/gw:2", "r.test/s:2"),
        "g1": ("r.test/gw:1", "r.test/s:2"),
        "g2": ("r.test/gw:2", "r.test/s:2"),
    }
