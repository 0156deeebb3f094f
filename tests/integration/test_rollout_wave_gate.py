"""The worker's approval gate with the real helm binary, devcluster and PostgreSQL: a wave is planned once while
its inputs hold; a cluster with an open circuit is not asked; an approved plan that no longer matches what the
wave would apply is refused, planned again and waits again, even when nothing that fed it changed (here: the
cluster's own state moved on); a cluster that starts serving another API voids a waiting plan."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from controlplane.models import ManagedCluster
from gateways.models import Gateway, GatewayRelease
from rollouts import approvals
from rollouts.models import Rollout, RolloutEvent, WavePlan
from rollouts.operations import create_rollout
from tests.fixtures.charts import MIRROR_CHART, copy_chart
from tests.fixtures.devcluster import DevCluster, start_devcluster
from tests.helpers import converge_by_passes
from tests.ports import free_port
from workers.reconcile.rollout.controller import advance
from workers.wave_planning import ClusterWavePlanner

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

WIDGET_CRD = {
    "apiVersion": "apiextensions.k8s.io/v1",
    "kind": "CustomResourceDefinition",
    "metadata": {"name": "widgets.gate.example.test"},
    "spec": {
        "group": "gate.example.test",
        "scope": "Namespaced",
        "names": {"kind": "Widget", "listKind": "WidgetList", "plural": "widgets", "singular": "widget"},
        "versions": [
            {
                "name": "v1",
                "served": True,
                "storage": True,
                "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": True}},
            }
        ],
    },
}


@pytest.fixture(scope="module")
def devcluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevCluster]:
    with start_devcluster(tmp_path_factory.mktemp("gate-k8s"), extra_presets=("agent-sandbox",)) as dc:
        yield dc


def test_an_approved_plan_that_no_longer_matches_is_refused_and_planned_again(
    devcluster: DevCluster,
    mirror_worker: None,
    alice: Any,
    admin_user: Any,
    make_user: Any,
    tmp_path: Any,
) -> None:
    cluster = ManagedCluster.objects.create(
        name="gate", kubeconfig=devcluster.kubeconfig.read_text(), base_domain="gate.example.test"
    )
    v1 = GatewayRelease.objects.create(name="v1", chart=str(MIRROR_CHART), default=True)
    v2 = GatewayRelease.objects.create(name="v2", chart=str(copy_chart(tmp_path / "v2", "0.2.0")))
    gateways = []
    for name in ("g0", "g1"):
        gateway = Gateway(
            owner=alice, cluster=cluster, name=name, image="r.test/gw:1", supervisor_image="r.test/s:1", release=v1
        )
        gateway.assign_namespace()
        gateway.save()
        gateways.append(gateway)
    rollout = create_rollout(
        Rollout(
            name="gated",
            target_release=v2,
            created_by=admin_user,
            require_approval=True,
            wave_percentages=[100],
            bake_seconds=0,
            max_parallel=2,
        )
    )
    rollout_id, planner = str(rollout.pk), ClusterWavePlanner()

    assert advance(rollout_id, planner).phase == "Progressing"  # v2 validated; wave 0 started
    # A cluster known not to answer is not asked (its probe's message says why): the wave waits, unplanned, with
    # one event however many ticks.
    kubeconfig = cluster.kubeconfig
    cluster.kubeconfig = re.sub(r"server: \S+", f"server: http://127.0.0.1:{free_port()}", kubeconfig)
    cluster.save()  # (a new kubeconfig clears the probe's verdict, which the probe then gives:)
    ManagedCluster.objects.filter(pk=cluster.pk).update(reachable=False, probe_message="the probe found no API server")
    for _ in range(2):
        assert advance(rollout_id, planner).phase == "AwaitingApproval"
    assert not WavePlan.objects.exists()
    failed = RolloutEvent.objects.filter(rollout=rollout, reason="PlanFailed").get()
    assert failed.message == "Wave 0 could not be planned: the cluster could not be read: the probe found no API server"
    cluster.kubeconfig = kubeconfig
    cluster.save()
    assert advance(rollout_id, planner).phase == "AwaitingApproval"
    first = WavePlan.objects.get(rollout=rollout)
    assert {plan["action"] for plan in first.plans.values()} == {"install"}  # nothing is installed yet
    assert advance(rollout_id, planner).phase == "AwaitingApproval"
    assert WavePlan.objects.filter(rollout=rollout).count() == 1, "the same inputs: planned once"
    approvals.approve(rollout.pk, make_user("second-admin", admin=True), first.plan_hash)

    # The approved plan installs g0; meanwhile its own reconcile installs v1. Nothing that fed the plan changed.
    converge_by_passes(gateways[0], lambda current: current.phase == "Running")
    assert advance(rollout_id, planner).phase == "AwaitingApproval"
    void, current = WavePlan.objects.get(pk=first.pk), WavePlan.objects.exclude(pk=first.pk).get(rollout=rollout)
    assert void.state == "void" and void.reason == "Changed: the plan of g0"
    assert current.state == "awaiting" and current.plan_hash != first.plan_hash
    assert current.plans[str(gateways[0].pk)]["action"] == "upgrade"
    assert current.plans[str(gateways[1].pk)] == first.plans[str(gateways[1].pk)]
    event = RolloutEvent.objects.filter(rollout=rollout, reason="ApprovalVoid").get()
    assert "the approval of plan" in event.message and "the plan of g0 changed" in event.message
    assert set(rollout.targets.values_list("state", flat=True)) == {"pending"}
    assert set(Gateway.objects.values_list("release__name", flat=True)) == {"v1"}

    # The cluster starts serving another API (a CRD): the waiting plan is void, planned again, and waits again.
    devcluster.call("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", WIDGET_CRD)
    assert advance(rollout_id, planner).phase == "AwaitingApproval"
    assert WavePlan.objects.get(pk=current.pk).reason == "Changed: the API versions of cluster gate"
    current = WavePlan.objects.filter(rollout=rollout).first()
    assert current.state == "awaiting" and WavePlan.objects.filter(rollout=rollout).count() == 3
    assert RolloutEvent.objects.filter(
        rollout=rollout, reason="AwaitingApproval", message__contains="the API versions of cluster gate changed"
    ).exists()

    approvals.approve(rollout.pk, make_user("third-admin", admin=True), current.plan_hash)
    assert advance(rollout_id, planner).phase == "Progressing"
    assert set(rollout.targets.values_list("state", flat=True)) == {"upgrading"}
    assert set(Gateway.objects.values_list("release__name", flat=True)) == {"v2"}
