"""The gateway pass and its cluster's maintenance window, with the fakes of the loop's tests (pure)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from controlplane.maintenance_windows import Verdict
from tests.unit.test_gateway_loop import NOW, NS, FakeHelm, FakeKube, request
from workers.charts import Chart
from workers.drivers.helm import HelmTarget
from workers.reconcile.gateway.outcome import WindowHold
from workers.reconcile.gateway.pass_io import PassIo
from workers.reconcile.gateway.passes.loop import reconcile
from workers.reconcile.gateway.passes.window_gate import REQUEUE_CAP_SECONDS

NEXT = NOW + timedelta(minutes=20)
CLOSED = Verdict(False, NEXT, message=f"Waiting for the next maintenance window, at {NEXT.isoformat()}")
OPEN = Verdict(True, NOW, message="Inside a maintenance window")
CHANGED = {"image": {"repository": "r.test/gw", "tag": "2"}}


@pytest.fixture
def cluster() -> tuple[FakeKube, FakeHelm, PassIo]:
    kube = FakeKube()
    helm = FakeHelm(kube)
    chart = Chart(ref="chart", version=None, chart_version="0.1.0", defaults={})
    return kube, helm, PassIo(helm=helm, kube=kube, target=HelmTarget(kubeconfig="", namespace=NS), chart=chart)


def window_condition(result) -> tuple[str, str, str]:
    found = [c for c in result.conditions if c.type == "MaintenanceWindow"]
    return (found[-1].status, found[-1].reason, found[-1].message) if found else ()


def test_an_upgrade_outside_the_window_waits_and_is_queued_for_its_start(cluster) -> None:
    _, helm, io = cluster
    reconcile(request(), io)
    result = reconcile(request(values=CHANGED, generation=2, window=CLOSED), io)
    assert helm.calls == ["install"]  # no upgrade
    assert window_condition(result) == ("False", "OutsideWindow", CLOSED.message)
    assert NEXT.isoformat() in window_condition(result)[2]
    assert result.window == WindowHold(NEXT) and result.next_attempt_at == NEXT
    assert result.requeue_after == (NEXT - NOW).total_seconds()
    assert not result.failed


def test_inside_the_window_the_upgrade_runs_and_the_wait_is_cleared(cluster) -> None:
    _, helm, io = cluster
    reconcile(request(), io)
    result = reconcile(request(values=CHANGED, generation=2, window=OPEN), io)
    assert helm.calls == ["install", "upgrade"]
    assert window_condition(result) == ("True", "WindowOpen", OPEN.message)
    assert result.window == WindowHold(None)


def test_a_far_window_is_waited_for_in_capped_steps(cluster) -> None:
    _, _, io = cluster
    reconcile(request(), io)
    far = Verdict(False, NOW + timedelta(days=3), message="later")
    result = reconcile(request(values=CHANGED, generation=2, window=far), io)
    assert result.requeue_after == REQUEUE_CAP_SECONDS and result.next_attempt_at == NOW + timedelta(days=3)


def test_installs_and_deletes_wait_only_when_the_cluster_holds_them(cluster) -> None:
    _, helm, io = cluster
    reconcile(request(window=CLOSED), io)
    assert helm.calls == ["install"]  # not held by default
    result = reconcile(request(deleting=True, window=CLOSED, window_holds_all=True), io)
    assert helm.calls == ["install"] and not result.delete_row
    assert result.phase == "Deleting" and window_condition(result)[:2] == ("False", "OutsideWindow")
    result = reconcile(request(deleting=True, window=CLOSED), io)
    assert helm.calls == ["install", "uninstall"] and result.delete_row


def test_a_held_install(cluster) -> None:
    _, helm, io = cluster
    result = reconcile(request(window=CLOSED, window_holds_all=True), io)
    assert helm.calls == [] and result.next_attempt_at == NEXT


def test_drift_repair_is_not_a_new_change_and_is_not_held(cluster) -> None:
    kube, helm, io = cluster
    reconcile(request(), io)
    del kube.objects[("statefulsets", NS, "edge")]
    result = reconcile(request(window=CLOSED), io)
    assert helm.calls == ["install", "upgrade"]
    assert window_condition(result)[:2] == ("True", "NothingHeld")


def test_no_window_no_condition(cluster) -> None:
    _, _, io = cluster
    assert window_condition(reconcile(request(), io)) == ()
