"""The gateway loop with fakes: an in-memory cluster, and a helm that writes release records as Helm does.

Only the pure decision logic is under test here; the real helm binary and devcluster are in the
integration and e2e suites.
"""

from __future__ import annotations

import base64
import gzip
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from workers.charts import Chart
from workers.drivers import errors
from workers.drivers.helm import HelmTarget
from workers.drivers.helm_parse import HelmReleaseStatus
from workers.reconcile.gateway.pass_io import PassIo
from workers.reconcile.gateway.passes.loop import reconcile
from workers.reconcile.gateway.request import GatewayRequest, Prerequisites, Timing
from workers.reconcile.retry import RetryPolicy

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
NS, RELEASE = "gw-edge-0000", "edge"
VALUES = {"image": {"repository": "r.test/gw", "tag": "1"}}


@dataclass
class FakeKube:
    """Objects by (plural, namespace, name); ``down`` makes every call fail as an unreachable cluster."""

    objects: dict[tuple[str, str, str], dict[str, Any]] = field(default_factory=dict)
    down: bool = False

    def _check(self) -> None:
        if self.down:
            raise errors.ClusterUnreachable("cluster unreachable: connection refused")

    def put(self, plural: str, obj: dict[str, Any]) -> None:
        meta = obj["metadata"]
        self.objects[(plural, meta.get("namespace", ""), meta["name"])] = obj

    def list_objects(
        self,
        api_version: str,
        plural: str,
        namespace: str | None = None,
        label_selector: str | None = None,
        field_selector: str | None = None,
    ) -> list[dict[str, Any]]:
        self._check()
        wanted = dict(part.split("=") for part in (label_selector or "").split(",") if "=" in part)
        fields = dict(part.split("=") for part in (field_selector or "").split(",") if "=" in part)
        kind_of = {"statefulsets": "StatefulSet", "secrets": "Secret", "deployments": "Deployment"}
        # Like the real driver, every item carries its apiVersion and kind.
        return [
            {"apiVersion": api_version, "kind": kind_of.get(plural, plural)} | obj
            for (kind, ns, _), obj in sorted(self.objects.items())
            if kind == plural
            and (namespace is None or ns == namespace)
            and all(obj["metadata"].get("labels", {}).get(k) == v for k, v in wanted.items())
            and all(obj.get(k) == v for k, v in fields.items())
        ]

    def delete_object(self, api_version: str, plural: str, namespace: str, name: str) -> None:
        self._check()
        self.objects.pop((plural, namespace, name), None)

    def ensure_namespace(self, name: str, labels: dict[str, str]) -> None:
        self._check()
        self.put("namespaces", {"metadata": {"name": name, "labels": dict(labels)}})

    def namespace_exists(self, name: str) -> bool:
        self._check()
        return ("namespaces", "", name) in self.objects

    def delete_namespace(self, name: str) -> None:
        self._check()
        for key in [k for k in self.objects if k[1] == name or k == ("namespaces", "", name)]:
            del self.objects[key]

    def delete(self, kind: str, namespace: str | None, name: str) -> None:
        self._check()
        plural = {"Secret": "secrets", "ConfigMap": "configmaps", "RoleBinding": "rolebindings"}[kind]
        self.objects.pop((plural, namespace or "", name), None)

    def apply_secret(self, namespace: str, name: str, data: dict[str, str], labels: dict[str, str]) -> None:
        self.put("secrets", {"metadata": {"name": name, "namespace": namespace}, "data": data})

    def apply_configmap(self, namespace: str, name: str, data: dict[str, str], labels: dict[str, str]) -> None:
        self.put("configmaps", {"metadata": {"name": name, "namespace": namespace}, "data": data})

    def apply_rolebinding(self, namespace: str, name: str, *_: Any) -> None:
        self.put("rolebindings", {"metadata": {"name": name, "namespace": namespace}})


@dataclass
class FakeHelm:
    """Writes a release record per revision into FakeKube, exactly as Helm's secret driver encodes it."""

    kube: FakeKube
    calls: list[str] = field(default_factory=list)
    fail: str | None = None  # a command that fails
    ready: bool = True

    def _release(self, target: HelmTarget, name: str, values: dict[str, Any]) -> HelmReleaseStatus:
        revisions = [o for o in self.kube.list_objects("v1", "secrets", target.namespace, f"owner=helm,name={name}")]
        revision = len(revisions) + 1
        document = {
            "name": name,
            "namespace": target.namespace,
            "version": revision,
            "config": values,
            "info": {"status": "deployed", "last_deployed": NOW.isoformat()},
            "chart": {"metadata": {"name": "gateway", "version": "0.1.0"}},
            "manifest": "",
        }
        encoded = base64.b64encode(base64.b64encode(gzip.compress(json.dumps(document).encode()))).decode()
        labels = {"owner": "helm", "name": name, "version": str(revision), "status": "deployed"}
        self.kube.put(
            "secrets",
            {
                "type": "helm.sh/release.v1",
                "data": {"release": encoded},
                "metadata": {
                    "name": f"sh.helm.release.v1.{name}.v{revision}",
                    "namespace": target.namespace,
                    "labels": labels,
                },
            },
        )
        sts = {
            "metadata": {
                "name": name,
                "namespace": target.namespace,
                "generation": 1,
                "labels": {"app.kubernetes.io/instance": name},
            },
            "spec": {"replicas": 1},
            "status": {"observedGeneration": 1, "updatedReplicas": 1, "readyReplicas": int(self.ready)},
        }
        self.kube.put("statefulsets", sts)
        return HelmReleaseStatus(name, target.namespace, revision, "deployed", "gateway", "0.1.0", None, NOW)

    def _run(self, command: str, target: HelmTarget, name: str, values: dict[str, Any]) -> HelmReleaseStatus:
        self.calls.append(command)
        if self.fail == command:
            raise errors.HelmError(f"{command} failed: render error")
        return self._release(target, name, values)

    def install(self, target: HelmTarget, name: str, chart: str, values: dict, **_: Any) -> HelmReleaseStatus:
        return self._run("install", target, name, values)

    def upgrade(self, target: HelmTarget, name: str, chart: str, values: dict, **_: Any) -> HelmReleaseStatus:
        return self._run("upgrade", target, name, values)

    def uninstall(self, target: HelmTarget, name: str, **_: Any) -> None:
        self.calls.append("uninstall")
        for key in [k for k in self.kube.objects if k[1] == target.namespace and k[0] in ("secrets", "statefulsets")]:
            del self.kube.objects[key]


def request(**overrides: Any) -> GatewayRequest:
    base: dict[str, Any] = {
        "gateway_id": "1",
        "generation": 1,
        "namespace": NS,
        "release": RELEASE,
        "namespace_labels": {"controlplane/managed": "true"},
        "prerequisites": Prerequisites(
            db_secret_name="edge-db",
            db_uri=None,
            trusted_ca=None,
            scc_binding=False,
            sandbox_service_account="edge-openshell-sandbox",
        ),
        "values": VALUES,
        "values_error": None,
        "route_host": None,
        "deleting": False,
        "suspended": False,
        "failure_count": 0,
        "next_attempt_at": None,
        "was_running": False,
        "now": NOW,
        "timing": Timing(
            retry=RetryPolicy(max_failures=3),
            pending_timeout=timedelta(minutes=5),
            ready_grace=timedelta(minutes=5),
            poll_interval=timedelta(seconds=5),
        ),
    }
    return GatewayRequest(**{**base, **overrides})


@pytest.fixture
def cluster() -> tuple[FakeKube, FakeHelm, PassIo]:
    kube = FakeKube()
    helm = FakeHelm(kube)
    chart = Chart(ref="chart", version=None, chart_version="0.1.0", defaults={})
    return kube, helm, PassIo(helm=helm, kube=kube, target=HelmTarget(kubeconfig="", namespace=NS), chart=chart)


def conditions(result: Any) -> dict[str, tuple[str, str]]:
    return {c.type: (c.status, c.reason) for c in result.conditions}


def test_absent_release_is_installed_once_and_runs(cluster) -> None:
    kube, helm, io = cluster
    result = reconcile(request(), io)
    assert helm.calls == ["install"]
    assert result.phase == "Running" and result.release is not None and result.release.revision == 1
    assert conditions(result)["Ready"] == ("True", "Succeeded")
    assert conditions(result)["ClusterReachable"] == ("True", "Reachable")
    assert ("namespaces", "", NS) in kube.objects


def test_a_current_release_costs_no_helm(cluster) -> None:
    _, helm, io = cluster
    reconcile(request(), io)
    helm.calls.clear()
    result = reconcile(request(), io)
    assert helm.calls == [] and result.phase == "Running" and result.requeue_after is None


def test_a_spec_change_upgrades_once(cluster) -> None:
    _, helm, io = cluster
    reconcile(request(), io)
    changed = {"image": {"repository": "r.test/gw", "tag": "2"}}
    result = reconcile(request(values=changed, generation=2), io)
    assert helm.calls == ["install", "upgrade"] and result.release.revision == 2


def test_a_missing_workload_is_repaired_by_upgrade(cluster) -> None:
    kube, helm, io = cluster
    reconcile(request(), io)
    del kube.objects[("statefulsets", NS, RELEASE)]
    reconcile(request(), io)
    assert helm.calls == ["install", "upgrade"]


def test_an_unready_workload_is_provisioning_and_polled(cluster) -> None:
    _, helm, io = cluster
    helm.ready = False
    result = reconcile(request(), io)
    assert result.phase == "Provisioning" and result.requeue_after == 5.0
    assert conditions(result)["Ready"] == ("False", "Progressing")
    rolling = reconcile(request(was_running=True), io)  # an upgrade of a Running gateway, still rolling out
    assert rolling.phase == "Provisioning" and rolling.requeue_after == 5.0
    degraded = reconcile(request(was_running=True, now=NOW + timedelta(minutes=10)), io)
    assert degraded.phase == "Degraded" and degraded.requeue_after is None  # the watcher wakes it


def test_a_watched_cluster_wakes_an_unready_workload_so_it_is_polled_only_when_its_grace_ends(cluster) -> None:
    _, helm, io = cluster
    helm.ready = False
    result = reconcile(request(watched=True), io)
    assert result.phase == "Provisioning" and result.requeue_after == 300.0  # deployed at NOW, grace 5 min
    late = reconcile(request(watched=True, now=NOW + timedelta(minutes=4, seconds=58)), io)
    assert late.phase == "Provisioning" and late.requeue_after == 5.0  # never sooner than the poll interval
    degraded = reconcile(request(watched=True, now=NOW + timedelta(minutes=10)), io)
    assert degraded.phase == "Degraded" and degraded.requeue_after is None


def test_a_failing_install_backs_off_and_stalls(cluster) -> None:
    _, helm, io = cluster
    helm.fail = "install"
    first = reconcile(request(), io)
    assert (first.failure_count, first.requeue_after) == (1, 60.0)
    assert conditions(first)["Released"] == ("False", "InstallFailed")
    last = reconcile(request(failure_count=2), io)
    assert last.phase == "Failed" and last.next_attempt_at is None
    assert conditions(last)["Stalled"] == ("True", "RetriesExceeded")


def test_an_unreachable_cluster_counts_no_failure_and_keeps_the_phase(cluster) -> None:
    kube, helm, io = cluster
    kube.down = True
    result = reconcile(request(failure_count=1, was_running=True), io)
    assert helm.calls == [] and result.failure_count is None and result.phase is None
    assert result.cluster_outage and conditions(result)["ClusterReachable"] == ("False", "Unreachable")
    deleting = reconcile(request(deleting=True), io)
    assert deleting.phase == "Deleting" and not deleting.delete_row and deleting.cluster_outage


def test_delete_uninstalls_then_drops_the_row(cluster) -> None:
    kube, helm, io = cluster
    reconcile(request(), io)
    result = reconcile(request(deleting=True), io)
    assert helm.calls == ["install", "uninstall"] and result.delete_row
    assert not [k for k in kube.objects if k[1] == NS or k[2] == NS]


def test_suspended_and_invalid_gateways_touch_nothing(cluster) -> None:
    kube, helm, io = cluster
    assert conditions(reconcile(request(suspended=True), io))["Reconciling"] == ("False", "Suspended")
    invalid = reconcile(request(values=None, values_error="bad image"), io)
    assert invalid.phase == "Failed" and conditions(invalid)["Stalled"] == ("True", "InvalidValues")
    assert helm.calls == [] and kube.objects == {}


def test_an_unavailable_chart_stalls_without_helm_or_a_failure_and_comes_back_at_the_retry(cluster) -> None:
    kube, helm, io = cluster
    unavailable = {
        "values": None,
        "chart_unavailable": "cannot pull oci://r.test/c 1.0: 503",
        "chart_retry_at": NOW + timedelta(seconds=8),
        "failure_count": 1,
    }
    new = reconcile(request(**unavailable), io)
    assert helm.calls == [] and kube.objects == {}
    assert new.phase is None and new.failure_count is None and new.requeue_after == 8.0
    assert conditions(new)["Stalled"] == ("True", "ChartUnavailable")
    assert conditions(new)["Ready"] == ("False", "ChartUnavailable") and "503" in new.conditions[0].message
    running = reconcile(request(**unavailable, was_running=True), io)
    assert running.phase is None and "Ready" not in conditions(running)  # the workload still serves
    overdue = reconcile(request(**{**unavailable, "chart_retry_at": NOW - timedelta(seconds=3)}), io)
    assert overdue.requeue_after == 1.0
    assert reconcile(request(**unavailable, deleting=True), io).delete_row  # deleting needs no chart
    assert helm.calls == ["uninstall"]
