"""Approving and rejecting a wave's plan without a worker: platform admins only, four eyes, the self-approval
setting, a stale hash (409 naming the current one), rejection, the audit trail and the plan endpoint. The plan
row stands in for the one the worker stores (its making is tested in tests/e2e/test_rollout_approval.py)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from controlplane.models import AuditEntry, ManagedCluster
from gateways.models import Gateway, GatewayRelease
from notifications import outbox
from notifications.models import Delivery, Receiver, Subscription
from rollouts.approval import plan_hash
from rollouts.models import Rollout, RolloutEvent, WavePlan
from tests.fixtures.charts import MIRROR_CHART

pytestmark = pytest.mark.django_db

PLAN = {
    "action": "upgrade",
    "reasons": ["values differ"],
    "values_diff": [{"path": "image.tag", "change": "changed", "before": "1", "after": "2"}],
    "objects": [],
}


@pytest.fixture
def second_admin_api(make_user: Any) -> Any:
    client = APIClient()
    client.force_authenticate(make_user("second-admin", admin=True))
    return client


@pytest.fixture
def rollout(admin_api: Any, alice: Any, cluster: ManagedCluster) -> Rollout:
    GatewayRelease.objects.create(name="v1", chart=str(MIRROR_CHART), default=True)
    GatewayRelease.objects.create(name="v2", chart=str(MIRROR_CHART), status="Ready")
    gateway = Gateway(owner=alice, cluster=cluster, name="edge", image="gw:1", supervisor_image="sv:1")
    gateway.assign_namespace()
    gateway.save()
    body = {"name": "to-v2", "target_release": "v2", "require_approval": True}
    created = admin_api.post("/api/v1/rollouts/", body, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["require_approval"] is True and created.json()["status"]["approval"] is None
    return Rollout.objects.get(pk=created.json()["id"])


def awaiting(rollout: Rollout) -> WavePlan:
    """The rollout as the worker leaves it once it planned wave 0."""
    gateway = rollout.targets.get().gateway
    plans = {str(gateway.pk): PLAN}
    Rollout.objects.filter(pk=rollout.pk).update(phase="AwaitingApproval")
    inputs = {
        "release": "r",
        "specs": {str(gateway.pk): "s"},
        "names": {str(gateway.pk): gateway.name},
        "clusters": {str(gateway.pk): gateway.cluster.name},
        "api_versions": {gateway.cluster.name: "a"},
    }
    return WavePlan.objects.create(rollout=rollout, wave=0, plan_hash=plan_hash(plans), plans=plans, inputs=inputs)


def url(rollout: Rollout, what: str) -> str:
    return f"/api/v1/rollouts/{rollout.pk}/{what}/"


def test_the_plan_is_shown_with_its_hash_and_is_a_404_before_it_is_made(admin_api, rollout) -> None:
    assert admin_api.get(url(rollout, "plan")).status_code == 404
    plan = awaiting(rollout)
    shown = admin_api.get(url(rollout, "plan"))
    assert shown.status_code == 200
    assert shown.json()["plan_hash"] == plan.plan_hash and shown.json()["state"] == "awaiting"
    assert [(g["gateway"], g["cluster"], g["plan"]["action"]) for g in shown.json()["gateways"]] == [
        ("edge", "east", "upgrade")
    ]
    status = admin_api.get(f"/api/v1/rollouts/{rollout.pk}/").json()["status"]
    assert status["phase"] == "AwaitingApproval" and status["approval"]["plan_hash"] == plan.plan_hash


def test_only_platform_admins_approve_or_reject(alice_api, rollout) -> None:
    plan = awaiting(rollout)
    assert alice_api.post(url(rollout, "approve"), {"plan_hash": plan.plan_hash}, format="json").status_code == 404
    assert alice_api.post(url(rollout, "reject"), {"reason": "no"}, format="json").status_code == 404
    assert alice_api.get(url(rollout, "plan")).status_code == 404
    assert WavePlan.objects.get(pk=plan.pk).state == "awaiting"


def test_four_eyes_the_creator_may_not_approve(admin_api, rollout) -> None:
    plan = awaiting(rollout)
    refused = admin_api.post(url(rollout, "approve"), {"plan_hash": plan.plan_hash}, format="json")
    assert refused.status_code == 403
    assert "Four eyes" in refused.json()["error"]["message"] and "creator" in refused.json()["error"]["message"]
    assert WavePlan.objects.get(pk=plan.pk).state == "awaiting"
    assert not AuditEntry.objects.filter(action="approve").exists()


def test_the_setting_allows_self_approval(admin_api, rollout, settings) -> None:
    settings.ROLLOUT_ALLOW_SELF_APPROVAL = True
    plan = awaiting(rollout)
    approved = admin_api.post(url(rollout, "approve"), {"plan_hash": plan.plan_hash}, format="json")
    assert approved.status_code == 200, approved.content
    assert WavePlan.objects.get(pk=plan.pk).state == "approved"


def test_a_second_admin_approves_the_current_hash_only(second_admin_api, rollout) -> None:
    plan = awaiting(rollout)
    stale = second_admin_api.post(url(rollout, "approve"), {"plan_hash": "0" * 64}, format="json")
    assert stale.status_code == 409 and plan.plan_hash in stale.json()["error"]["message"]
    assert WavePlan.objects.get(pk=plan.pk).state == "awaiting"
    missing = second_admin_api.post(url(rollout, "approve"), {}, format="json")
    assert missing.status_code == 400 and "plan_hash" in missing.json()["error"]["fields"]
    approved = second_admin_api.post(url(rollout, "approve"), {"plan_hash": plan.plan_hash}, format="json")
    assert approved.status_code == 200, approved.content
    status = approved.json()["status"]
    assert status["approval"]["state"] == "approved" and status["approval"]["decided_by"] == "second-admin"
    condition = {c["type"]: c for c in status["conditions"]}["Approved"]
    assert condition["status"] == "True" and "second-admin" in condition["message"]
    entry = AuditEntry.objects.get(action="approve", resource_id=str(rollout.pk))
    assert entry.actor_name == "second-admin" and entry.changes == {"wave": 0, "plan_hash": plan.plan_hash}
    events = second_admin_api.get(url(rollout, "events")).json()["results"]
    assert events[0]["reason"] == "Approved" and events[0]["wave"] == 0
    again = second_admin_api.post(url(rollout, "approve"), {"plan_hash": plan.plan_hash}, format="json")
    assert again.status_code == 409  # nothing waits any more


def test_reject_halts_the_rollout_with_the_reason(admin_api, rollout) -> None:
    assert admin_api.post(url(rollout, "reject"), {"reason": "x"}, format="json").status_code == 409  # not planned
    plan = awaiting(rollout)
    missing = admin_api.post(url(rollout, "reject"), {}, format="json")
    assert missing.status_code == 400 and "reason" in missing.json()["error"]["fields"]
    rejected = admin_api.post(url(rollout, "reject"), {"reason": "the diff drops our route"}, format="json")
    assert rejected.status_code == 200, rejected.content
    status = rejected.json()["status"]
    assert status["phase"] == "Halted" and status["finished_at"]
    halted = {c["type"]: c for c in status["conditions"]}["Halted"]
    assert halted["reason"] == "Rejected" and "the diff drops our route" in halted["message"]
    assert WavePlan.objects.get(pk=plan.pk).reason == "the diff drops our route"
    event = admin_api.get(url(rollout, "events")).json()["results"][0]
    assert (event["reason"], event["type"]) == ("Rejected", "Warning")
    assert AuditEntry.objects.get(action="reject").changes == {
        "wave": 0,
        "plan_hash": plan.plan_hash,
        "reason": "the diff drops our route",
    }
    assert admin_api.post(url(rollout, "approve"), {"plan_hash": plan.plan_hash}, format="json").status_code == 409


def test_a_cluster_can_require_approval(admin_api, cluster) -> None:
    changed = admin_api.patch(f"/api/v1/clusters/{cluster.pk}/", {"rollouts_require_approval": True}, format="json")
    assert changed.status_code == 200 and changed.json()["rollouts_require_approval"] is True
    assert ManagedCluster.objects.get(pk=cluster.pk).rollouts_require_approval


def test_the_schema_documents_the_plan_approve_and_reject(admin_api) -> None:
    schema = admin_api.get("/api/v1/schema/?format=json").json()
    operations = {
        path: {method: op.get("operationId") for method, op in ops.items()} for path, ops in schema["paths"].items()
    }
    assert operations["/api/v1/rollouts/{id}/approve/"]["post"] == "rollouts_approve"
    assert operations["/api/v1/rollouts/{id}/reject/"]["post"] == "rollouts_reject"
    assert operations["/api/v1/rollouts/{id}/plan/"]["get"] == "rollouts_plan_retrieve"
    components = schema["components"]["schemas"]
    assert components["ApproveRequest"]["required"] == ["plan_hash"]
    assert "AwaitingApproval" in components["RolloutPhaseEnum"]["enum"]
    assert "require_approval" in components["RolloutRequest"]["properties"]


def test_a_wave_waiting_and_its_approval_are_notified(
    second_admin_api, admin_user, rollout, django_capture_on_commit_callbacks
) -> None:
    hook = Receiver.objects.create(name="hook", url="https://hooks.example.test/cp", secret="s" * 24)
    Subscription.objects.create(
        owner=admin_user,
        name="approvals",
        receiver=hook,
        kinds=["rollout"],
        reasons=["AwaitingApproval", "Approved", "Rejected"],
    )
    plan = awaiting(rollout)
    RolloutEvent.objects.create(rollout=rollout, wave=0, reason="AwaitingApproval", message="plan awaits approval")
    approved = second_admin_api.post(url(rollout, "approve"), {"plan_hash": plan.plan_hash}, format="json")
    assert approved.status_code == 200
    with django_capture_on_commit_callbacks(execute=False):
        outbox.dispatch()
    # A wave waiting for a person is a warning; its approval is news.
    found = {(d.reason, d.severity) for d in Delivery.objects.all()}
    assert found == {("AwaitingApproval", "warning"), ("Approved", "info")}


def test_the_dashboard_lists_the_rollouts_waiting_for_approval(admin_user, alice, rollout, client) -> None:
    client.force_login(admin_user)
    assert client.get("/admin/").context["rollouts_awaiting_total"] == 0
    awaiting(rollout)
    page = client.get("/admin/")
    assert page.context["rollouts_awaiting_total"] == 1
    assert [(r["name"], r["release"], r["wave"]) for r in page.context["rollouts_awaiting"]] == [("to-v2", "v2", 0)]
    assert b"Rollouts waiting for approval" in page.content
    alice.is_staff = True
    alice.save()
    client.force_login(alice)
    assert "rollouts_awaiting" not in client.get("/admin/").context
