"""Each gateway action on its own, against the fake cluster and helm of the loop's tests."""

from __future__ import annotations

import base64
import gzip
import json
from datetime import timedelta
from typing import Any

import pytest

from tests.unit.test_gateway_loop import NOW, NS, RELEASE, VALUES, FakeHelm, FakeKube, request
from workers.charts import Chart
from workers.drivers import errors
from workers.drivers.helm import HelmTarget
from workers.drivers.helm_parse import HelmReleaseStatus
from workers.drivers.helm_storage import StoredRelease
from workers.reconcile.gateway.actions import Interrupted, install, purge, uninstall, unlock, upgrade
from workers.reconcile.gateway.observation.view import GatewayView
from workers.reconcile.gateway.outcome import GatewayOutcome
from workers.reconcile.gateway.pass_io import PassIo
from workers.reconcile.gateway.passes.loop import reconcile

STUCK_SECRET = f"sh.helm.release.v1.{RELEASE}.v2"


@pytest.fixture
def cluster() -> tuple[FakeKube, FakeHelm, PassIo]:
    kube = FakeKube()
    helm = FakeHelm(kube)
    chart = Chart(ref="chart", version=None, chart_version="0.1.0", defaults={})
    return kube, helm, PassIo(helm=helm, kube=kube, target=HelmTarget(kubeconfig="", namespace=NS), chart=chart)


def stuck(kube: FakeKube, status: str = "pending-upgrade") -> HelmReleaseStatus:
    """Revision 2 of the release, left in ``status`` by a helm process that died long ago."""
    started = NOW - timedelta(minutes=20)
    document = {
        "name": RELEASE,
        "namespace": NS,
        "version": 2,
        "config": VALUES,
        "info": {"status": status, "last_deployed": started.isoformat()},
        "chart": {"metadata": {"name": "gateway", "version": "0.1.0"}},
        "manifest": "",
    }
    encoded = base64.b64encode(base64.b64encode(gzip.compress(json.dumps(document).encode()))).decode()
    labels = {"owner": "helm", "name": RELEASE, "version": "2", "status": status}
    kube.put(
        "secrets",
        {
            "type": "helm.sh/release.v1",
            "data": {"release": encoded},
            "metadata": {"name": STUCK_SECRET, "namespace": NS, "labels": labels},
        },
    )
    return HelmReleaseStatus(RELEASE, NS, 2, status, "gateway", "0.1.0", None, started)


def events(result: GatewayOutcome) -> list[tuple[str, str]]:
    return [(e.type, e.reason) for e in result.events]


def conditions(result: GatewayOutcome) -> dict[str, tuple[str, str]]:
    return {c.type: (c.status, c.reason) for c in result.conditions}


def test_install_reports_the_release_and_clears_failures(cluster) -> None:
    _, helm, io = cluster
    result = GatewayOutcome(failure_count=2).merge(install.run(request(failure_count=2), io, GatewayView(release=None)))
    assert helm.calls == ["install"] and result.release is not None and result.release.revision == 1
    assert conditions(result) == {"Released": ("True", "InstallSucceeded")}
    assert events(result) == [("Normal", "InstallSucceeded")]
    assert (result.failure_count, result.next_attempt_at) == (0, None)


def test_upgrade_reports_the_new_revision_and_clears_failures(cluster) -> None:
    _, helm, io = cluster
    install.run(request(), io, None)
    result = upgrade.run(request(failure_count=1), io, None)
    assert helm.calls == ["install", "upgrade"] and result.release is not None and result.release.revision == 2
    assert conditions(result) == {"Released": ("True", "UpgradeSucceeded")}
    assert events(result) == [("Normal", "UpgradeSucceeded")] and result.failure_count == 0


def test_uninstall_records_an_event_only_when_there_was_a_release(cluster) -> None:
    _, helm, io = cluster
    install.run(request(), io, None)
    result = uninstall.run(request(deleting=True), io, None)
    assert helm.calls[-1] == "uninstall" and events(result) == [("Normal", "UninstallSucceeded")]

    class Gone(FakeHelm):
        def uninstall(self, target: HelmTarget, name: str, **_: Any) -> None:
            raise errors.ReleaseNotFound(f"release {name} not found")

    kube = FakeKube()
    gone = PassIo(helm=Gone(kube), kube=kube, target=io.target, chart=io.chart)
    result = uninstall.run(request(deleting=True), gone, None)
    assert result.events == [] and result.conditions == []


def test_unlock_removes_the_stuck_revision_it_observed(cluster) -> None:
    kube, helm, io = cluster
    install.run(request(), io, None)
    status = stuck(kube)
    result = unlock.run(request(), io, GatewayView(release=StoredRelease(status, values=VALUES, manifest="")))
    assert ("secrets", NS, STUCK_SECRET) not in kube.objects
    assert ("secrets", NS, f"sh.helm.release.v1.{RELEASE}.v1") in kube.objects  # the settled revision stays
    assert events(result) == [("Warning", "Unlocked")] and "pending-upgrade" in result.events[0].message
    assert helm.calls == ["install"] and result.failure_count is None  # no helm call; failures are the upgrade's


def test_the_loop_unlocks_a_stuck_release_and_goes_on_from_the_settled_revision(cluster) -> None:
    kube, helm, io = cluster
    reconcile(request(), io)
    stuck(kube)
    result = reconcile(request(), io)  # revision 1 holds the spec: nothing more to do
    assert helm.calls == ["install"] and events(result) == [("Warning", "Unlocked")]
    assert result.phase == "Running"
    stuck(kube, "pending-rollback")
    changed = {"image": {"repository": "r.test/gw", "tag": "2"}}
    result = reconcile(request(values=changed, generation=2), io)
    assert helm.calls == ["install", "upgrade"]
    assert events(result) == [("Warning", "Unlocked"), ("Normal", "UpgradeSucceeded")]


class StuckNamespaceKube(FakeKube):
    """A cluster whose namespace cannot be deleted (a webhook refuses it, say)."""

    def get_namespace(self, name: str) -> dict[str, Any] | None:
        return self.objects.get(("namespaces", "", name))

    def delete_namespace(self, name: str) -> None:
        raise errors.Unauthorized("namespaces is forbidden")


def stuck_namespace() -> PassIo:
    """A release's namespace and cluster role, in a cluster that refuses to delete the namespace."""
    kube = StuckNamespaceKube()
    kube.ensure_namespace(NS, {})
    labels = {"app.kubernetes.io/instance": RELEASE, "app.kubernetes.io/managed-by": "Helm"}
    kube.put("clusterroles", {"kind": "ClusterRole", "metadata": {"name": f"{RELEASE}-reader", "labels": labels}})
    chart = Chart(ref="chart", version=None, chart_version="0.1.0", defaults={})
    return PassIo(helm=FakeHelm(kube), kube=kube, target=HelmTarget(kubeconfig="", namespace=NS), chart=chart)


def test_a_purge_that_fails_part_way_keeps_the_events_of_what_it_removed() -> None:
    with pytest.raises(Interrupted) as interrupted:
        purge.run(request(deleting=True), stuck_namespace(), None)
    assert isinstance(interrupted.value.cause, errors.Unauthorized)
    assert events(interrupted.value.done) == [("Normal", "ClusterObjectsDeleted"), ("Normal", "OwnObjectsDeleted")]
    result = reconcile(request(deleting=True, failure_count=99), stuck_namespace())  # past the failed uninstalls
    reasons = ["ForcedDelete", "ClusterObjectsDeleted", "OwnObjectsDeleted", "DeleteFailed"]
    assert [reason for _, reason in events(result)] == reasons
    assert result.failed and result.phase == "Deleting" and not result.delete_row
