"""Rollouts on the live stack: three devclusters, two gateways each on release v1, moved to v2 in waves.

v1 is the mirror chart; v2 is a copy at version 0.2.0; a "bad v2" (0.2.1) renders a GRPCRoute with no
parent, which no gateway controller accepts, so its gateways never become Ready. Each release carries its own
gateway and supervisor images, and the gateways name none: a rollout moves chart and images together, and a
rollback moves both back (checked in Helm's own record).
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.charts import MIRROR_CHART, copy_chart, helm_images
from tests.fixtures.devcluster import DevCluster, start_devcluster
from tests.fixtures.stack import ApiSession, Stack
from tests.waiting import repeat_for, wait_until

pytestmark = pytest.mark.e2e

GATEWAYS_PER_CLUSTER = 2
IMAGES = {
    name: (f"ghcr.io/nvidia/openshell/gateway:{tag}", f"ghcr.io/nvidia/openshell/supervisor:{tag}")
    for name, tag in (("v1", "1.0.0"), ("v2", "2.0.0"), ("bad", "2.0.1"))
}
IMAGES["v2"] = (IMAGES["v2"][0], "ghcr.io/nvidia/openshell/supervisor@sha256:" + "2" * 64)  # digest-pinned


@pytest.fixture(scope="module")
def third_gateway_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevCluster]:
    with start_devcluster(tmp_path_factory.mktemp("gw-k8s-3"), ready_delay=0.3, extra_presets=("agent-sandbox",)) as dc:
        yield dc


@pytest.fixture(scope="module")
def charts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("rollout-charts")
    return {"v2": copy_chart(root / "v2", "0.2.0"), "bad": copy_chart(root / "bad", "0.2.1", never_ready=True)}


@pytest.fixture
def admin(api_session: Callable[..., ApiSession]) -> ApiSession:
    return api_session("rollout-admin")


@pytest.fixture
def fleet(admin, tenant, charts, gateway_cluster, second_gateway_cluster, third_gateway_cluster, register, cleanup):
    """Releases v1 (the default), v2 and bad; six Running gateways on v1 over three clusters."""
    releases = (("v1", MIRROR_CHART, True), ("v2", charts["v2"], False), ("bad", charts["bad"], False))
    for name, chart, default in releases:
        image, supervisor = IMAGES[name]
        body = {"name": name, "chart": str(chart), "default": default, "image": image, "supervisor_image": supervisor}
        cleanup(admin.post("/api/v1/releases/", json=body))
    clusters, kubeconfigs = [], {}
    for index, dc in enumerate((gateway_cluster, second_gateway_cluster, third_gateway_cluster)):
        clusters.append(register(dc, f"ro-c{index}").name)
        kubeconfigs[clusters[-1]] = dc.kubeconfig
    gateways = {}
    for cluster in clusters:
        for index in range(GATEWAYS_PER_CLUSTER):
            body = {"name": f"{cluster}-g{index}", "cluster": cluster, "labels": {"cluster": cluster}}
            created = cleanup(tenant.post("/api/v1/gateways/", json=body))
            assert created["release"] == "v1"
            image, supervisor = IMAGES["v1"]
            assert created["desired_images"] == {"image": image, "supervisor_image": supervisor, "overridden": False}
            gateways[created["id"]] = cluster
    for gateway_id in gateways:
        body = wait_until_running(tenant, gateway_id, "v1")
        assert deployed(body) == IMAGES["v1"]
    return {"clusters": clusters, "gateways": gateways, "kubeconfigs": kubeconfigs}


def deployed(body: dict[str, Any]) -> tuple[str, str]:
    images = body["status"]["deployed_images"]
    return (images["image"], images["supervisor_image"]) if images else ("", "")


def helm_record(fleet: dict[str, Any], body: dict[str, Any], workdir: Path) -> tuple[str, str, str, int]:
    """(gateway image, supervisor image, chart, revisions) from Helm's release record on the gateway's cluster."""
    kubeconfig = fleet["kubeconfigs"][body["cluster"]]
    return helm_images(kubeconfig, workdir, body["namespace"], body["status"]["release"]["name"])


def wait_until_running(tenant: ApiSession, gateway_id: str, release: str, timeout: float = 120) -> dict[str, Any]:
    def check() -> dict[str, Any] | None:
        body = tenant.get(f"/api/v1/gateways/{gateway_id}/").json()
        status = body["status"]
        converged = status["observed_generation"] == body["generation"]
        ok = status["phase"] == "Running" and converged and status["deployed_release"] == release
        return body if ok and body["release"] == release else None

    return wait_until(check, f"gateway {gateway_id} Running on {release}", timeout=timeout)


def start(admin: ApiSession, **body: Any) -> dict[str, Any]:
    defaults = {
        "name": "to-v2",
        "target_release": "v2",
        "max_parallel": 1,
        "bake_seconds": 1,
        "gate_timeout_seconds": 30,
        "failure_policy": "halt_and_rollback",
    }
    response = admin.post("/api/v1/rollouts/", json={**defaults, **body})
    assert response.status_code == 201, response.text
    return response.json()


def wait_for_rollout(admin: ApiSession, rollout_id: str, phase: str, timeout: float = 150) -> dict[str, Any]:
    def check() -> dict[str, Any] | None:
        body = admin.get(f"/api/v1/rollouts/{rollout_id}/").json()
        return body if body["status"]["phase"] == phase else None

    return wait_until(check, f"rollout {rollout_id} to be {phase}", timeout=timeout, interval=0.5)


def targets(admin: ApiSession, rollout_id: str) -> list[dict[str, Any]]:
    return admin.get(f"/api/v1/rollouts/{rollout_id}/targets/?limit=200").json()["results"]


def events(admin: ApiSession, rollout_id: str) -> list[dict[str, Any]]:
    return admin.get(f"/api/v1/rollouts/{rollout_id}/events/?limit=200").json()["results"]


def upgrades(tenant: ApiSession, gateway_id: str) -> int:
    history = tenant.get(f"/api/v1/gateways/{gateway_id}/events/?limit=200").json()["results"]
    return sum(1 for e in history if e["reason"] == "UpgradeSucceeded")


def when(value: str) -> datetime:
    return datetime.fromisoformat(value)


def max_overlap(rows: list[dict[str, Any]]) -> int:
    points = sorted(
        [(when(r["started_at"]), 1) for r in rows] + [(when(r["finished_at"]), -1) for r in rows],
        key=lambda p: (p[0], p[1]),
    )
    running = peak = 0
    for _, delta in points:
        running += delta
        peak = max(peak, running)
    return peak


def test_a_canary_wave_then_the_rest_moves_every_gateway_to_v2(admin, tenant, fleet, tmp_path: Path) -> None:
    c0, c1, c2 = fleet["clusters"]
    rollout = start(admin, waves={"clusters": [[c0], [c1, c2]]}, max_parallel=2)
    done = wait_for_rollout(admin, rollout["id"], "Completed")
    assert done["status"]["total"]["counts"]["healthy"] == 6 and done["status"]["total"]["worst"] == "healthy"
    assert [w["size"] for w in done["status"]["waves"]] == [2, 4] and done["status"]["waves"][0]["canary"]
    for gateway_id in fleet["gateways"]:
        body = wait_until_running(tenant, gateway_id, "v2")
        assert body["status"]["release"]["revision"] == 2 and body["status"]["release"]["chart_version"] == "0.2.0"
        assert upgrades(tenant, gateway_id) == 1
        assert deployed(body) == IMAGES["v2"] and body["desired_images"]["image"] == IMAGES["v2"][0]
        assert helm_record(fleet, body, tmp_path) == (*IMAGES["v2"], "openshell-gateway-0.2.0", 2)
    rows = targets(admin, rollout["id"])
    canary, rest = [r for r in rows if r["wave"] == 0], [r for r in rows if r["wave"] == 1]
    assert {r["cluster_name"] for r in canary} == {c0}
    assert max(when(r["finished_at"]) for r in canary) <= min(when(r["started_at"]) for r in rest)
    assert max_overlap(canary) <= 2 and max_overlap(rest) <= 2
    assert max_overlap(rest) == 2  # parallel within the bound
    reasons = [e["reason"] for e in reversed(events(admin, rollout["id"])) if not e["gateway_name"]]
    assert reasons == ["Created", "WaveStarted", "WaveHealthy", "WaveStarted", "WaveHealthy", "Completed"]


def test_a_v2_that_never_becomes_ready_fails_the_canary_gate_and_is_rolled_back(
    admin, tenant, fleet, tmp_path: Path
) -> None:
    c0, c1, c2 = fleet["clusters"]
    rollout = start(
        admin, target_release="bad", waves={"clusters": [[c0], [c1, c2]]}, max_parallel=2, gate_timeout_seconds=6
    )
    halted = wait_for_rollout(admin, rollout["id"], "Halted")
    condition = {c["type"]: c for c in halted["status"]["conditions"]}["Halted"]
    assert condition["reason"] == "GateFailed"
    # The gate halts on the first canary past its timeout; the other is named if it timed out in the same tick.
    assert condition["message"].startswith("Wave 0 failed its health gate: ")
    assert (
        f"{c0}-g0: Not Ready within 6s" in condition["message"]
        or f"{c0}-g1: Not Ready within 6s" in condition["message"]
    ), condition["message"]
    assert {b["gateway"] for b in halted["status"]["blocked"]} == {f"{c0}-g0", f"{c0}-g1"}
    assert halted["status"]["waves"][0]["counts"]["rolled_back"] == 2
    assert halted["status"]["waves"][1]["counts"]["pending"] == 4
    for gateway_id, cluster in fleet["gateways"].items():
        body = wait_until_running(tenant, gateway_id, "v1")
        # The canary went to the bad release and back (revisions 2 and 3); nobody else was touched.
        assert body["status"]["release"]["revision"] == (3 if cluster == c0 else 1)
        # Chart and images went back together.
        assert deployed(body) == IMAGES["v1"]
        revisions = 3 if cluster == c0 else 1
        assert helm_record(fleet, body, tmp_path) == (*IMAGES["v1"], "openshell-gateway-0.1.0", revisions)


def test_pause_resume_abort_overlap_and_a_spec_change_during_the_rollout(admin, tenant, fleet) -> None:
    c0, c1, c2 = fleet["clusters"]
    rollout = start(admin, waves={"clusters": [[c0], [c1], [c2]]}, bake_seconds=2)
    clash = admin.post("/api/v1/rollouts/", json={"name": "other", "target_release": "v2"})
    assert clash.status_code == 409 and "'to-v2'" in clash.json()["error"]["message"]
    changed = next(g for g, c in fleet["gateways"].items() if c == c1)
    image = "ghcr.io/nvidia/openshell/gateway:1.0.1"
    assert tenant.patch(f"/api/v1/gateways/{changed}/", json={"image": image}).status_code == 200
    url = f"/api/v1/rollouts/{rollout['id']}"
    wait_until(lambda: admin.get(f"{url}/").json()["status"]["current_wave"] == 1, "wave 1 to start", timeout=90)
    paused = admin.post(f"{url}/pause/")
    assert paused.status_code == 200 and paused.json()["status"]["phase"] == "Paused"

    def started() -> int:
        return sum(1 for t in targets(admin, rollout["id"]) if t["started_at"])

    before = started()

    def none_started() -> None:
        assert started() == before, "a target started while the rollout was paused"

    repeat_for(4, none_started, interval=0.5)  # four rollout intervals
    assert admin.post(f"{url}/resume/").json()["status"]["phase"] == "Progressing"
    wait_for_rollout(admin, rollout["id"], "Completed")
    body = wait_until_running(tenant, changed, "v2")
    assert body["image"] == image  # the user's change is kept, and deployed with the new release
    # Abort: the gateways are free for another rollout at once; nothing is rolled back.
    back = start(admin, name="back", target_release="v1", max_parallel=1, bake_seconds=30)
    aborted = admin.post(f"/api/v1/rollouts/{back['id']}/abort/")
    assert aborted.status_code == 200 and aborted.json()["status"]["phase"] == "Aborted"
    assert admin.post(f"/api/v1/rollouts/{back['id']}/resume/").status_code == 409
    again = start(admin, name="again", target_release="v1", max_parallel=1, bake_seconds=30)
    assert admin.post(f"/api/v1/rollouts/{again['id']}/abort/").status_code == 200


def test_a_worker_killed_mid_rollout_finishes_it_without_upgrading_a_gateway_twice(
    admin, tenant, fleet, live_stack: Stack
) -> None:
    c0, c1, c2 = fleet["clusters"]
    rollout = start(admin, waves={"clusters": [[c0], [c1], [c2]]}, max_parallel=2, bake_seconds=2)
    url = f"/api/v1/rollouts/{rollout['id']}/"
    wait_until(
        lambda: admin.get(url).json()["status"]["waves"][1]["counts"]["upgrading"] > 0,
        "wave 1 to upgrade",
        timeout=90,
        interval=0.1,
    )
    live_stack.stop("worker", sig=signal.SIGKILL)
    live_stack.start_worker()
    wait_for_rollout(admin, rollout["id"], "Completed")
    started = [e["gateway_name"] for e in events(admin, rollout["id"]) if e["reason"] == "UpgradeStarted"]
    assert sorted(started) == sorted({*started}) and len(started) == 6
    for gateway_id in fleet["gateways"]:
        body = wait_until_running(tenant, gateway_id, "v2")
        assert upgrades(tenant, gateway_id) == 1 and body["status"]["release"]["revision"] == 2
