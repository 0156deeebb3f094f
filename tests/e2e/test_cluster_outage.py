"""A cluster outage is not a gateway failure, and one bad cluster never holds up another (live stack)."""

from __future__ import annotations

import pytest

from controlplane.models import ManagedCluster
from tests.waiting import repeat_for, wait_until

pytestmark = pytest.mark.e2e

# The live stack's backoff is 1, 2, 4, 4, 4 s and Failed after 5 failures: about 15 s in all.
OUTAGE_SECONDS = 25
IMAGE = "ghcr.io/nvidia/openshell/gateway:1.0.0"


def create(tenant, cluster: str, name: str) -> str:
    body = {"name": name, "cluster": cluster, "image": IMAGE, "supervisor_image": "ghcr.io/nvidia/openshell/s:1"}
    response = tenant.post("/api/v1/gateways/", json=body)
    assert response.status_code == 201, response.text
    return response.json()["id"]


def status(tenant, gw_id: str) -> dict:
    return tenant.get(f"/api/v1/gateways/{gw_id}/").json()["status"]


def reachable(body: dict) -> tuple[str, str] | None:
    condition = next((c for c in body["conditions"] if c["type"] == "ClusterReachable"), None)
    return (condition["status"], condition["reason"]) if condition else None


def watch_outage(tenant, ids: list[str], seconds: float) -> list[dict]:
    """Poll the outage cluster's gateways for ``seconds``: none may fail or count a failure."""
    seen: list[dict] = []

    def sample() -> None:
        for gw_id in ids:
            body = status(tenant, gw_id)
            assert body["phase"] != "Failed" and body["failure_count"] == 0, body
            seen.append(body)

    repeat_for(seconds, sample, interval=0.5)
    return seen


def test_outage_keeps_phase_counts_no_failure_and_recovers_alone(
    tenant, wait_for_phase, gateway_cluster, second_gateway_cluster, register
) -> None:
    register(gateway_cluster, "down")
    register(second_gateway_cluster, "fine")
    down = [create(tenant, "down", f"d{n}") for n in range(2)]
    for gw_id in down:
        wait_for_phase(gw_id, "Running")

    gateway_cluster.add_fault(path_regex=".*", status=503)
    try:
        for gw_id in down:  # a spec change makes each need helm, which the outage must not turn into failures
            assert tenant.patch(f"/api/v1/gateways/{gw_id}/", json={"image": IMAGE.replace("1.0.0", "1.0.1")}).ok
        seen = watch_outage(tenant, down, OUTAGE_SECONDS)
        assert {reachable(body) for body in seen[-len(down) :]} == {("False", "Unreachable")}
        assert {body["phase"] for body in seen} == {"Running"}  # the last known phase is kept

        fine = create(tenant, "fine", "f0")
        wait_for_phase(fine, "Running")  # the other cluster converges meanwhile

        gateway_cluster.clear_faults()
        gateway_cluster.add_fault(path_regex=".*", status=None, latency_ms=30_000)  # slow, not down
        assert tenant.patch(f"/api/v1/gateways/{fine}/", json={"image": IMAGE.replace("1.0.0", "1.0.2")}).ok
        upgraded = wait_for_phase(fine, "Running", observed_generation=2, timeout=60)["status"]
        assert upgraded["release"]["revision"] == 2
        watch_outage(tenant, down, 5)
    finally:
        gateway_cluster.clear_faults()

    for gw_id in down:  # no retry call: the probe closes the circuit and the resync resumes them
        recovered = wait_for_phase(gw_id, "Running", observed_generation=2, timeout=120)["status"]
        assert recovered["release"]["revision"] == 2 and recovered["failure_count"] == 0
        assert reachable(recovered) == ("True", "Reachable")
    events = tenant.get(f"/api/v1/gateways/{down[0]}/events/").json()["results"]
    assert not [e for e in events if e["reason"].endswith("Failed")]


def test_killed_calls_mid_outage_never_wedge_a_cluster(
    tenant, wait_for_phase, second_gateway_cluster, register
) -> None:
    """An outage that starts mid-pass (a connection refused by a dead port) opens the circuit too."""
    cluster = register(second_gateway_cluster, "flap")
    gw_id = create(tenant, "flap", "flap0")
    wait_for_phase(gw_id, "Running")
    fault = second_gateway_cluster.add_fault(path_regex=r"/apis/apps/v1/namespaces/.*/statefulsets", status=503)
    try:
        assert tenant.patch(f"/api/v1/gateways/{gw_id}/", json={"image": IMAGE.replace("1.0.0", "2.0.0")}).ok
        wait_until(lambda: reachable(status(tenant, gw_id)) == ("False", "Unreachable"), "the gateway to see it")
        # The probe (/version still answers) may close the circuit between two passes; each pass meeting the 503s
        # opens it again, so wait for the cluster to be seen open rather than read it at one moment.
        wait_until(lambda: ManagedCluster.objects.get(pk=cluster.pk).reachable is False, "the circuit to open")
    finally:
        second_gateway_cluster.call("DELETE", f"/_devcluster/faults/{fault}")
    recovered = wait_for_phase(gw_id, "Running", observed_generation=2, timeout=90)["status"]
    assert recovered["failure_count"] == 0
