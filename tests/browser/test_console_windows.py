"""A cluster's maintenance windows in the console (headless Chromium): a bad entry is refused, named; saved
windows show on the cluster page with whether a change may start now or the next start, and in the list."""

from __future__ import annotations

import json

import pytest

from controlplane.models import ManagedCluster
from tests.fixtures.browser import Console
from tests.helpers import KUBECONFIG

pytestmark = pytest.mark.browser

NIGHTLY = {"cron": "0 22 * * *", "duration": "4h", "timezone": "Europe/Berlin"}


def test_a_platform_admin_sets_windows_and_sees_the_next_one(console: Console, staff_user) -> None:
    cluster = ManagedCluster.objects.create(name="east", kubeconfig=KUBECONFIG, base_domain="east.example.test")
    staff_user("platform", superuser=True)
    console.login("platform")
    page = f"/admin/controlplane/managedcluster/{cluster.pk}/change/"
    console.open(page)
    console.open_section("Maintenance windows")
    console.fill("maintenance_windows", json.dumps({"windows": [{**NIGHTLY, "timezone": "Europe/Berln"}]}))
    console.submit("input[name='_continue']")
    error = console.find(".field-maintenance_windows .errorlist").text
    assert "windows[0].timezone" in error and "not an IANA time zone" in error
    cluster.refresh_from_db()
    assert cluster.maintenance_windows == {}

    console.fill("maintenance_windows", json.dumps({"windows": [NIGHTLY]}))
    console.submit("input[name='_continue']")
    assert any("was changed successfully" in m for m in console.messages()), console.messages()
    cluster.refresh_from_db()
    assert cluster.maintenance_windows == {"windows": [NIGHTLY]}
    shown = console.find(".field-windows_display").text
    assert "0 22 * * * for 4h (Europe/Berlin)" in shown
    status = cluster.maintenance_status
    assert ("Open" if status["open"] else status["next_start"].isoformat()) in shown
    console.screenshot("cluster-maintenance-windows")
    console.open("/admin/controlplane/managedcluster/")
    assert ("Open" if status["open"] else "Closed") in console.find("#result_list .field-window_column").text
