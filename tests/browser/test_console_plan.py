"""The console's "Preview changes" in headless Chromium: a plan computed by the real worker, shown until ready."""

from __future__ import annotations

import pytest

from gateways.choices import DatabaseProvider, Phase
from gateways.models import Gateway
from tests.browser.test_console import make_gateway
from tests.fixtures.browser import Console
from tests.waiting import wait_until

pytestmark = pytest.mark.browser

DB_URI = "postgresql://gw:console-plan-s3cret@db.example.test/gw"


def plan_status(console: Console) -> str | None:
    return console.driver.execute_script("const p = document.getElementById('cp-plan'); return p && p.dataset.status")


def test_preview_changes_shows_the_plan_once_the_worker_is_done(
    console: Console, staff_user, gateway_cluster, register
) -> None:
    cluster = register(gateway_cluster, "k8s")
    owner = staff_user("tenant")
    staff_user("intruder")
    gateway = make_gateway(owner, cluster, "edge", database_provider=DatabaseProvider.EXTERNAL, database_uri=DB_URI)
    wait_until(lambda: Gateway.objects.get(pk=gateway.pk).phase == Phase.RUNNING, "the gateway to run", timeout=90)

    console.login("tenant")
    console.open(f"/admin/gateways/gateway/{gateway.pk}/change/")
    console.submit("button[data-operation='plan']")
    assert "/plan/" in console.path
    plan_path = console.path
    console.wait_for(lambda: plan_status(console) == "ready", "the plan to be ready (the page refreshes itself)", 60)

    assert console.find("#cp-plan").get_attribute("data-action") == "nothing"
    assert console.find("#cp-plan-action .cp-badge--ok").text == "nothing"
    assert "The deployed release is current." in console.texts("#cp-plan-reasons li")
    assert console.find("#cp-plan-values-same").is_displayed() and not console.find_all(".cp-plan-object")
    checks = {row.get_attribute("data-state") for row in console.find_all("#cp-plan-prerequisites tbody tr")}
    assert checks == {"present"}
    assert "DB credentials Secret" in console.find("#cp-plan-prerequisites").text
    assert DB_URI not in console.driver.page_source and "console-plan-s3cret" not in console.driver.page_source
    console.screenshot("gateway-plan")

    console.login("intruder")
    console.open(plan_path)
    assert not console.find_all("#cp-plan"), "another tenant never sees the plan"
