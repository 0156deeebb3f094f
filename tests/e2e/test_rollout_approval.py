"""Rollouts that wait for approval, on the live stack: a real worker plans each wave with the real helm binary
on devcluster, waits in AwaitingApproval, applies only the plan a second admin approved by its hash, and voids an
approval when a target's spec changes before the wave applies (Helm's own history shows what was applied);
``cpctl rollouts approve`` shows the plan and asks, ``cpctl rollouts reject`` halts."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.charts import MIRROR_CHART, copy_chart, helm_json
from tests.fixtures.stack import ApiSession, Stack
from tests.waiting import wait_until

pytestmark = pytest.mark.e2e

IMAGES = {
    "v1": ("ghcr.io/nvidia/openshell/gateway:1.0.0", "ghcr.io/nvidia/openshell/supervisor:1.0.0"),
    "v2": ("ghcr.io/nvidia/openshell/gateway:2.0.0", "ghcr.io/nvidia/openshell/supervisor:2.0.0"),
}
V1_CHART, V2_CHART = "openshell-gateway-0.1.0", "openshell-gateway-0.2.0"


@pytest.fixture
def creator(api_session: Callable[..., ApiSession]) -> ApiSession:
    return api_session("rollout-creator")


@pytest.fixture
def approver(api_session: Callable[..., ApiSession]) -> ApiSession:
    return api_session("second-admin")


@pytest.fixture
def fleet(creator, tenant, gateway_cluster, tmp_path: Path, register) -> dict[str, Any]:
    """Releases v1 (the default) and v2 (chart 0.2.0); two Running gateways on v1 on one cluster."""
    for name, chart, default in (("v1", MIRROR_CHART, True), ("v2", copy_chart(tmp_path / "v2", "0.2.0"), False)):
        image, supervisor = IMAGES[name]
        body = {"name": name, "chart": str(chart), "default": default, "image": image, "supervisor_image": supervisor}
        assert creator.post("/api/v1/releases/", json=body).status_code == 201
    cluster = register(gateway_cluster, "ap-c0")
    gateways = {}
    for index in range(2):
        created = tenant.post("/api/v1/gateways/", json={"name": f"ap-g{index}", "cluster": cluster.name})
        assert created.status_code == 201, created.text
        gateways[created.json()["id"]] = created.json()
    for gateway_id in gateways:
        gateways[gateway_id] = wait_until(lambda g=gateway_id: running(tenant, g), f"gateway {gateway_id} Running")
    return {"cluster": cluster, "kubeconfig": gateway_cluster.kubeconfig, "gateways": gateways}


def running(tenant: ApiSession, gateway_id: str, release: str = "v1") -> dict[str, Any] | None:
    body = tenant.get(f"/api/v1/gateways/{gateway_id}/").json()
    status = body["status"]
    done = status["phase"] == "Running" and status["observed_generation"] == body["generation"]
    return body if done and status["deployed_release"] == release else None


def helm_charts(fleet: dict[str, Any], body: dict[str, Any], workdir: Path) -> list[str]:
    """The chart of every revision in Helm's history of the gateway's release, oldest first."""
    history = helm_json(
        fleet["kubeconfig"], workdir, "history", body["status"]["release"]["name"], "-n", body["namespace"]
    )
    return [revision["chart"] for revision in history]


def start(creator: ApiSession, **body: Any) -> str:
    defaults = {
        "name": "to-v2",
        "target_release": "v2",
        "waves": {"percentages": [100]},
        "max_parallel": 2,
        "bake_seconds": 1,
        "gate_timeout_seconds": 60,
    }
    created = creator.post("/api/v1/rollouts/", json={**defaults, **body})
    assert created.status_code == 201, created.text
    return f"/api/v1/rollouts/{created.json()['id']}"


def awaiting(session: ApiSession, url: str, not_hash: str = "") -> dict[str, Any]:
    """The rollout once it waits for approval of a plan (other than ``not_hash``)."""

    def check() -> dict[str, Any] | None:
        body = session.get(f"{url}/").json()
        approval = body["status"]["approval"]
        ok = body["status"]["phase"] == "AwaitingApproval" and approval and approval["state"] == "awaiting"
        return body if ok and approval["plan_hash"] != not_hash else None

    return wait_until(check, f"{url} to await approval", timeout=90, interval=0.5)


def reasons(session: ApiSession, url: str) -> list[str]:
    return [e["reason"] for e in reversed(session.get(f"{url}/events/?limit=200").json()["results"])]


def started(session: ApiSession, url: str) -> list[str]:
    return [t["gateway_name"] for t in session.get(f"{url}/targets/").json()["results"] if t["started_at"]]


def test_a_wave_waits_for_a_second_admin_to_approve_its_hash_then_applies(
    creator, approver, tenant, fleet, tmp_path: Path
) -> None:
    cluster = creator.patch(f"/api/v1/clusters/{fleet['cluster'].pk}/", json={"rollouts_require_approval": True})
    assert cluster.status_code == 200, cluster.text
    url = start(creator)
    plan_hash = awaiting(creator, url)["status"]["approval"]["plan_hash"]
    plan = creator.get(f"{url}/plan/").json()
    assert plan["plan_hash"] == plan_hash and len(plan_hash) == 64
    assert sorted(g["gateway"] for g in plan["gateways"]) == ["ap-g0", "ap-g1"]
    for planned in plan["gateways"]:
        assert planned["plan"]["action"] == "upgrade", planned
        assert {"path": "image.tag", "change": "changed", "before": "1.0.0", "after": "2.0.0"} in planned["plan"][
            "values_diff"
        ]
    assert started(creator, url) == []
    for body in fleet["gateways"].values():
        assert helm_charts(fleet, body, tmp_path) == [V1_CHART]

    own = creator.post(f"{url}/approve/", json={"plan_hash": plan_hash})
    assert own.status_code == 403 and "Four eyes" in own.json()["error"]["message"]
    stale = approver.post(f"{url}/approve/", json={"plan_hash": "f" * 64})
    assert stale.status_code == 409 and plan_hash in stale.json()["error"]["message"]
    approved = approver.post(f"{url}/approve/", json={"plan_hash": plan_hash})
    assert approved.status_code == 200, approved.text

    wait_until(
        lambda: creator.get(f"{url}/").json()["status"]["phase"] == "Completed",
        "the rollout to complete",
        timeout=150,
        interval=0.5,
    )
    for gateway_id in fleet["gateways"]:
        body = wait_until(lambda g=gateway_id: running(tenant, g, "v2"), f"gateway {gateway_id} on v2", timeout=90)
        assert helm_charts(fleet, body, tmp_path) == [V1_CHART, V2_CHART]
    assert reasons(creator, url)[:4] == ["Created", "WaveStarted", "AwaitingApproval", "Approved"]
    assert "ApprovalVoid" not in reasons(creator, url)


def test_a_spec_change_after_approval_voids_it_and_nothing_of_the_old_plan_is_applied(
    creator, approver, tenant, fleet, live_stack: Stack, tmp_path: Path
) -> None:
    url = start(creator, require_approval=True)
    old_hash = awaiting(creator, url)["status"]["approval"]["plan_hash"]
    changed_id, changed = next(iter(fleet["gateways"].items()))
    live_stack.stop("worker")  # so the change lands between the approval and the wave's apply
    try:
        assert approver.post(f"{url}/approve/", json={"plan_hash": old_hash}).status_code == 200
        image = "ghcr.io/nvidia/openshell/gateway:1.0.1"
        assert tenant.patch(f"/api/v1/gateways/{changed_id}/", json={"image": image}).status_code == 200
    finally:
        live_stack.start_worker()

    again = awaiting(creator, url, not_hash=old_hash)
    assert again["status"]["approval"]["plan_hash"] != old_hash
    events = creator.get(f"{url}/events/?limit=200").json()["results"]
    void = next(e for e in events if e["reason"] == "ApprovalVoid")
    assert f"the spec of {changed['name']}" in void["message"] and old_hash[:12] in void["message"]
    assert void["type"] == "Warning"
    assert started(creator, url) == []
    assert "UpgradeStarted" not in reasons(creator, url)
    # Helm's history: the spec change was applied on v1 (its own reconcile); nothing of v2, the old plan's release.
    body = wait_until(lambda: running(tenant, changed_id), "the changed gateway converged on v1", timeout=90)
    assert body["image"] == image
    for other in fleet["gateways"].values():
        assert V2_CHART not in helm_charts(fleet, other, tmp_path)
    assert started(creator, url) == []
    assert creator.post(f"{url}/abort/").status_code == 200


def token(session: ApiSession) -> str:
    return session.headers["Authorization"].removeprefix("Token ")


def test_cpctl_shows_the_plan_asks_and_approves_or_rejects(
    cpctl: Callable[..., subprocess.CompletedProcess[str]], creator, approver, fleet, live_stack: Stack
) -> None:
    cpctl("login", live_stack.api_url, "--token", token(creator), "--name", "creator")
    cpctl("login", live_stack.api_url, "--token", token(approver), "--name", "approver")
    url = start(creator, name="first", require_approval=True)
    awaiting(creator, url)
    rejected = cpctl("--context", "creator", "rollouts", "reject", "first", "--reason", "not this week", "-o", "json")
    halted = json.loads(rejected.stdout)["status"]
    assert halted["phase"] == "Halted" and halted["approval"]["reason"] == "not this week"
    assert creator.post(f"{url}/abort/").status_code == 200

    url = start(creator, name="second", require_approval=True)
    plan_hash = awaiting(creator, url)["status"]["approval"]["plan_hash"]
    shown = cpctl("--context", "approver", "rollouts", "plan", "second").stdout
    assert shown.splitlines()[0] == f"Rollout second, wave 0: plan {plan_hash} (awaiting), 2 gateways"
    assert '  ~ image.tag: "1.0.0" -> "2.0.0"' in shown
    declined = cpctl("--context", "approver", "rollouts", "approve", "second", typed="n\n", status=1)
    assert "gateway ap-g0 on ap-c0:" in declined.stderr and f"Approve plan {plan_hash}?" in declined.stderr
    assert "not approved" in declined.stderr
    assert creator.get(f"{url}/").json()["status"]["approval"]["state"] == "awaiting"
    own = cpctl("--context", "creator", "rollouts", "approve", "second", "--yes", status=1)
    assert "Four eyes" in own.stderr and "HTTP 403" in own.stderr
    approved = cpctl("--context", "approver", "rollouts", "approve", "second", "-o", "json", typed="y\n")
    assert json.loads(approved.stdout)["status"]["approval"]["decided_by"] == approver.username
    listed = cpctl("--context", "approver", "rollouts", "list").stdout
    assert "second" in listed and "approved" in listed
