"""Fault tests on the live stack: devcluster injects the failures, the real worker must cope."""

from __future__ import annotations

import re
import signal

import pytest
import requests
from kubernetes import client

from tests.e2e.conftest import kube_api
from tests.fixtures.alerts import alerts, evaluate, rendered_rules, scraped_series
from tests.helpers import release_of
from tests.waiting import repeat_for, wait_until

pytestmark = pytest.mark.e2e


def create(tenant, cluster: str, name: str = "edge") -> tuple[str, str]:
    body = {
        "name": name,
        "cluster": cluster,
        "image": "ghcr.io/nvidia/openshell/gateway:1.0.0",
        "supervisor_image": "ghcr.io/nvidia/openshell/supervisor:1",
    }
    response = tenant.post("/api/v1/gateways/", json=body)
    assert response.status_code == 201, response.text
    return response.json()["id"], response.json()["namespace"]


def assert_only_gateway_failed_fires(live_stack, workdir, cluster: str) -> None:
    """The chart's alerts, evaluated by promtool on the cluster's series from a real scrape of /metrics."""

    def scraped() -> str | None:
        text = requests.get(f"{live_stack.api_url}/metrics", timeout=10).text
        return text if f'cluster_reachable{{cluster="{cluster}"}} 1.0' in text else None

    series = scraped_series(wait_until(scraped, f"{cluster} to be probed reachable"), cluster=cluster)
    rules = rendered_rules()
    description = alerts(rules)["ControlPlaneGatewayFailed"]["annotations"]["description"]
    expected = {
        "ControlPlaneGatewayFailed": [
            {
                "exp_labels": {"cluster": cluster, "severity": "critical"},
                "exp_annotations": {"summary": f"1 gateway(s) Failed on cluster {cluster}", "description": description},
            }
        ]
    }
    done = evaluate(workdir, rules, series, expected)
    assert done.returncode == 0, done.stdout + done.stderr


def releases_in(dc, namespace: str) -> list[dict]:
    secrets = client.CoreV1Api(kube_api(dc)).list_namespaced_secret(namespace, label_selector="owner=helm").items
    return [s.metadata.labels for s in secrets]


def test_failing_install_backs_off_fails_after_five_and_recovers_with_retry(
    tenant, wait_for_phase, gateway_cluster, live_stack, tmp_path, register
):
    register(gateway_cluster, "flaky")
    fault = gateway_cluster.add_fault(
        path_regex=r"/apis/apps/v1/namespaces/gw-broken-[^/]+/statefulsets/", method="PATCH", status=500
    )
    try:
        gw_id, _ = create(tenant, "flaky", name="broken")
        failed = wait_for_phase(gw_id, "Failed", timeout=120)
        assert failed["status"]["failure_count"] == 5 and failed["status"]["next_attempt_at"] is None
        stalled = {c["type"]: c for c in failed["status"]["conditions"]}["Stalled"]
        assert (stalled["status"], stalled["reason"]) == ("True", "RetriesExceeded")
        events = tenant.get(f"/api/v1/gateways/{gw_id}/events/").json()["results"]
        failures = sorted(e["timestamp"] for e in events if e["reason"] in ("InstallFailed", "UpgradeFailed"))
        assert len(failures) == 5
        assert_only_gateway_failed_fires(live_stack, tmp_path, "flaky")
    finally:
        gateway_cluster.call("DELETE", f"/_devcluster/faults/{fault}")
    retried = tenant.post(f"/api/v1/gateways/{gw_id}/retry/")
    assert retried.status_code == 202 and retried.json()["status"]["failure_count"] == 0
    running = wait_for_phase(gw_id, "Running")
    assert {c["type"]: c["status"] for c in running["status"]["conditions"]}["Stalled"] == "False"


def test_unreachable_cluster_keeps_gateway_deleting_until_it_can_delete(
    tenant, wait_for_phase, gateway_cluster, register
):
    register(gateway_cluster, "cut")
    gw_id, namespace = create(tenant, "cut", name="doomed")
    wait_for_phase(gw_id, "Running")
    fault = gateway_cluster.add_fault(path_regex=".*", status=503)
    try:
        assert tenant.delete(f"/api/v1/gateways/{gw_id}/").status_code == 202

        def unreachable() -> dict | None:
            body = tenant.get(f"/api/v1/gateways/{gw_id}/").json()
            conditions = {c["type"]: c for c in body["status"]["conditions"]}
            reachable = conditions.get("ClusterReachable", {})
            return body if (reachable.get("status"), reachable.get("reason")) == ("False", "Unreachable") else None

        body = wait_until(unreachable, "the gateway to show ClusterReachable=False")
        assert body["status"]["phase"] == "Deleting" and body["status"]["failure_count"] == 0
    finally:
        gateway_cluster.call("DELETE", f"/_devcluster/faults/{fault}")
    core = client.CoreV1Api(kube_api(gateway_cluster))
    assert namespace in [n.metadata.name for n in core.list_namespace().items]
    wait_until(lambda: tenant.get(f"/api/v1/gateways/{gw_id}/").status_code == 404, "the row to go", timeout=60)
    assert namespace not in [n.metadata.name for n in core.list_namespace().items]


def test_worker_killed_mid_install_converges_without_duplicate_release(
    tenant, wait_for_phase, gateway_cluster, live_stack, register
):
    register(gateway_cluster, "killed")
    fault = gateway_cluster.add_fault(
        path_regex=r"/apis/apps/v1/namespaces/gw-victim-[^/]+/statefulsets/",
        method="PATCH",
        status=None,
        latency_ms=4000,
        count=1,
    )
    gateway_cluster.clear_requests()
    gw_id, namespace = create(tenant, "killed", name="victim")
    wait_until(
        lambda: any(
            r["method"] == "PATCH" and re.search(rf"/namespaces/{namespace}/statefulsets/", r["path"])
            for r in gateway_cluster.requests()
        ),
        "helm to start applying the workload",
    )
    live_stack.stop("worker", sig=signal.SIGKILL)
    live_stack.start_worker()
    try:
        running = wait_for_phase(gw_id, "Running", timeout=120)
    finally:
        gateway_cluster.call("DELETE", f"/_devcluster/faults/{fault}")
    releases = releases_in(gateway_cluster, namespace)
    assert {r["name"] for r in releases} == {release_of(namespace)}
    assert [r["status"] for r in releases if r["status"] == "deployed"] == ["deployed"]
    assert running["status"]["release"]["status"] == "deployed"


def test_two_workers_never_run_helm_for_one_gateway_at_once(
    tenant, wait_for_phase, gateway_cluster, live_stack, register
):
    register(gateway_cluster, "busy")
    live_stack.start_worker("worker2")
    try:
        gw_id, namespace = create(tenant, "busy", name="contended")
        wait_for_phase(gw_id, "Running")
        gateway_cluster.add_fault(
            path_regex=rf"/api/v1/namespaces/{namespace}/secrets", method="PUT", status=None, latency_ms=300
        )
        for tag in ("1.0.1", "1.0.2"):
            image = f"ghcr.io/nvidia/openshell/gateway:{tag}"
            assert tenant.patch(f"/api/v1/gateways/{gw_id}/", json={"image": image}).ok
            for _ in range(10):
                assert tenant.post(f"/api/v1/gateways/{gw_id}/resync/").status_code == 202
        final = wait_for_phase(gw_id, "Running", observed_generation=3)
        events = tenant.get(f"/api/v1/gateways/{gw_id}/events/?limit=200").json()["results"]
        assert not [e for e in events if "another operation" in e["message"] or e["type"] == "Warning"]
        assert final["status"]["failure_count"] == 0
        logs = live_stack.log("worker") + live_stack.log("worker2")
        assert "worker2" in live_stack.processes and "contended pass" in logs
    finally:
        gateway_cluster.clear_faults()
        live_stack.stop("worker2")


def test_a_pass_longer_than_its_lease_keeps_it_and_no_second_worker_runs_helm(
    tenant, wait_for_phase, gateway_cluster, live_stack, register
):
    """Two workers with a 3 s lease; an install that takes 8 s; a storm of resyncs meanwhile."""
    register(gateway_cluster, "slow")
    short_lease = {"GATEWAY_LEASE_SECONDS": "3"}
    live_stack.stop("worker")
    live_stack.start_worker("worker", extra_env=short_lease)
    live_stack.start_worker("worker2", extra_env=short_lease)
    gateway_cluster.add_fault(
        path_regex=r"/apis/apps/v1/namespaces/gw-long-[^/]+/statefulsets/",
        method="PATCH",
        status=None,
        latency_ms=8000,
        count=1,
    )
    try:
        gw_id, namespace = create(tenant, "slow", name="long")
        # Helm records pending-install before it applies the objects, so the 8 s call is under way.
        wait_until(
            lambda: [r for r in releases_in(gateway_cluster, namespace) if r["status"] == "pending-install"],
            "helm to start the install",
            interval=0.05,
        )

        def resync() -> None:
            assert tenant.post(f"/api/v1/gateways/{gw_id}/resync/").status_code == 202

        repeat_for(5, resync, interval=0.5)
        running = wait_for_phase(gw_id, "Running", timeout=90)
    finally:
        gateway_cluster.clear_faults()
        live_stack.stop("worker2")
        live_stack.stop("worker")
        live_stack.start_worker()
    assert running["status"]["release"]["revision"] == 1 and running["status"]["failure_count"] == 0
    releases = releases_in(gateway_cluster, namespace)
    assert [(r["version"], r["status"]) for r in releases] == [("1", "deployed")]
    events = tenant.get(f"/api/v1/gateways/{gw_id}/events/?limit=200").json()["results"]
    assert [e["reason"] for e in events if e["reason"].startswith("Install")] == ["InstallSucceeded"]
    assert not [e for e in events if e["type"] == "Warning"]
