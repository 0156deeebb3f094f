"""The rollouts console in headless Chromium: start a rollout, watch its waves progress, pause it."""

from __future__ import annotations

import pytest

from gateways.choices import Phase
from gateways.models import Gateway, GatewayRelease
from rollouts.models import Rollout
from tests.browser.test_console import make_gateway
from tests.fixtures.browser import Console
from tests.fixtures.charts import MIRROR_CHART, copy_chart
from tests.waiting import wait_until

pytestmark = pytest.mark.browser


def wave_worst(console: Console, wave: int) -> str | None:
    rows = console.find_all(f"#cp-rollout-waves tr[data-wave='{wave}']")
    return rows[0].get_attribute("data-worst") if rows else None


def test_start_a_rollout_watch_its_waves_and_pause_it(
    console: Console, staff_user, gateway_cluster, tmp_path, register
) -> None:
    GatewayRelease.objects.create(name="v1", chart=str(MIRROR_CHART), default=True)
    GatewayRelease.objects.create(name="v2", chart=str(copy_chart(tmp_path / "v2", "0.2.0")))
    cluster = register(gateway_cluster, "k8s")
    owner = staff_user("tenant")
    gateways = [make_gateway(owner, cluster, f"edge{i}") for i in range(3)]
    for gateway in gateways:
        wait_until(lambda g=gateway: Gateway.objects.get(pk=g.pk).phase == Phase.RUNNING, "the gateways to run", 90)
    staff_user("platform", superuser=True)

    console.login("platform")
    console.open("/admin/rollouts/rollout/add/")
    console.fill("name", "to-v2")
    console.select("target_release", "v2")
    console.fill("wave_percentages", "[34, 100]")
    console.fill("bake_seconds", "30")
    console.fill("gate_timeout_seconds", "60")
    console.submit("input[name='_save']")
    assert any("to-v2" in m for m in console.messages()), console.messages()
    rollout = Rollout.objects.get(name="to-v2")
    page = f"/admin/rollouts/rollout/{rollout.pk}/change/"

    console.reload_until(page, lambda: wave_worst(console, 0) == "healthy", "the canary wave to be healthy", 90)
    assert wave_worst(console, 1) == "pending" and "(canary)" in console.find("#cp-rollout-waves").text
    assert "WaveHealthy" in console.find(".field-events_display").text
    console.submit("button[data-operation='pause']")
    assert any("Pause" in m for m in console.messages())
    assert console.find(".field-phase_column .cp-badge").text == "Paused"
    assert console.find_all("button[data-operation='resume']") and not console.find_all(
        "button[data-operation='pause']"
    )
    console.screenshot("rollout-paused")
    assert Rollout.objects.get(pk=rollout.pk).phase == "Paused"
