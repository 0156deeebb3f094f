"""A rollout wave's plan in headless Chromium: the diff of each gateway, Approve (four eyes) and Reject."""

from __future__ import annotations

import pytest

from controlplane.models import AuditEntry
from gateways.choices import Phase
from gateways.models import Gateway, GatewayRelease
from rollouts.models import Rollout, WavePlan
from rollouts.operations import create_rollout
from tests.browser.test_console import make_gateway
from tests.fixtures.browser import Console
from tests.fixtures.charts import MIRROR_CHART, copy_chart
from tests.waiting import wait_until

pytestmark = pytest.mark.browser


def test_the_wave_plan_shows_each_diff_and_a_second_admin_approves_it(
    console: Console, staff_user, gateway_cluster, tmp_path, register
) -> None:
    GatewayRelease.objects.create(name="v1", chart=str(MIRROR_CHART), default=True)
    v2 = GatewayRelease.objects.create(name="v2", chart=str(copy_chart(tmp_path / "v2", "0.2.0")))
    cluster = register(gateway_cluster, "k8s")
    owner = staff_user("tenant")
    gateways = [make_gateway(owner, cluster, f"edge{i}") for i in range(2)]
    for gateway in gateways:
        wait_until(lambda g=gateway: Gateway.objects.get(pk=g.pk).phase == Phase.RUNNING, "the gateways to run", 90)
    creator = staff_user("creator", superuser=True)
    staff_user("approver", superuser=True)
    rollout = create_rollout(
        Rollout(
            name="to-v2",
            target_release=v2,
            created_by=creator,
            require_approval=True,
            wave_percentages=[100],
            bake_seconds=1,
            max_parallel=2,
        )
    )
    page = f"/admin/rollouts/rollout/{rollout.pk}/change/"

    console.login("creator")
    # The plan is shown as soon as it is made; Approve once the rollout waits for it (the worker's next step).
    console.reload_until(
        page,
        lambda: (
            console.find_all("#cp-rollout-approval[data-state='awaiting']")
            and console.find_all("button[data-operation='approve']")
        ),
        "the wave plan and its Approve button",
        90,
    )
    shown = console.find("#cp-rollout-approval").get_attribute("data-plan-hash")
    assert shown == WavePlan.objects.get(rollout=rollout).plan_hash
    planned = {
        e.get_attribute("data-gateway"): e.get_attribute("data-action")
        for e in console.find_all(".cp-approval-gateway")
    }
    assert planned == {"edge0": "upgrade", "edge1": "upgrade"}
    assert "+    helm.sh/chart: openshell-gateway-0.2.0" in console.find(".cp-approval-gateway").text
    console.submit("button[data-operation='approve']")
    assert any("Four eyes" in m for m in console.messages()), console.messages()
    assert WavePlan.objects.get(rollout=rollout).state == "awaiting"

    console.login("approver")
    console.open(page)
    console.submit("button[data-operation='approve']")
    assert any("Approved" in m for m in console.messages()), console.messages()
    assert AuditEntry.objects.get(action="approve", source="console").actor_name == "approver"
    console.reload_until(
        page, lambda: console.find(".field-phase_column .cp-badge").text == "Completed", "the rollout to complete", 120
    )
    assert not console.find_all("button[data-operation='approve']")
