"""Images through the API: releases own them (one provenance, or an audited exception), gateways take the
default release's, and tenants override them only as the image policy allows. Every refusal is a 400 that names
its rule and stores nothing."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from controlplane.models import AuditEntry, ManagedCluster
from gateways.chart_keys import defaults_from_yaml
from gateways.choices import Phase
from gateways.models import Gateway, GatewayRelease
from tests.fixtures.charts import MIRROR_CHART
from workers.charts import Chart
from workers.reconcile.gateway.passes.request_from_rows import build_request
from workers.reconcile.rollout.overrides import dropped_overrides

pytestmark = pytest.mark.django_db

GW = "ghcr.io/nvidia/openshell/gateway:1.0.0"
SV = "ghcr.io/nvidia/openshell/supervisor:1.0.0"
DIGEST = "sha256:" + "c" * 64
DENY = {"overrides": "deny"}
NOW = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
CHART = Chart(
    ref=str(MIRROR_CHART),
    version=None,
    chart_version="0.1.0",
    defaults=defaults_from_yaml((Path(MIRROR_CHART) / "values.yaml").read_text()),
)
TEAM_ONLY = {"overrides": "allow", "repositories": ["reg.example.com:5000/team/"], "require_digest": True}


@pytest.fixture
def release(db: None) -> GatewayRelease:
    return GatewayRelease.objects.create(
        name="v1", chart=str(MIRROR_CHART), image=GW, supervisor_image=SV, default=True
    )


def release_body(**overrides: Any) -> dict[str, Any]:
    return {"name": "v2", "chart": str(MIRROR_CHART), "image": GW, "supervisor_image": SV, **overrides}


def error_fields(response: Any) -> dict[str, list[str]]:
    assert response.status_code == 400, response.content
    return response.json()["error"]["fields"]


def set_policy(cluster: ManagedCluster, policy: dict | None) -> None:
    cluster.image_policy = policy
    cluster.save()


def test_a_release_carries_both_images_from_one_provenance(admin_api) -> None:
    created = admin_api.post("/api/v1/releases/", release_body(supervisor_image=f"{SV}@{DIGEST}"), format="json")
    assert created.status_code == 201, created.content
    assert created.json()["image"] == GW and created.json()["supervisor_image"] == f"{SV}@{DIGEST}"
    changed = admin_api.patch(f"/api/v1/releases/{created.json()['id']}/", {"image": f"{GW}1"}, format="json")
    assert error_fields(changed) == {"image": ["This field cannot be changed."]}


def test_a_release_with_mixed_provenance_is_a_400_that_says_why_and_stores_nothing(admin_api) -> None:
    body = release_body(
        image="quay.io/someone/openshell-gateway:16112bc",
        supervisor_image="ghcr.io/nvidia/openshell/supervisor:16112bc",
    )
    fields = error_fields(admin_api.post("/api/v1/releases/", body, format="json"))
    message = " ".join(fields["supervisor_image"])
    assert "Mixed provenance" in message and "'quay.io/someone'" in message and "allow_mixed_provenance" in message
    half = error_fields(admin_api.post("/api/v1/releases/", release_body(supervisor_image=""), format="json"))
    assert "both images, or neither" in " ".join(half["supervisor_image"])
    assert not GatewayRelease.objects.exists()


def test_an_admin_may_allow_mixed_provenance_and_it_is_audited(admin_api) -> None:
    body = release_body(image="quay.io/someone/openshell-gateway:1", allow_mixed_provenance=True)
    created = admin_api.post("/api/v1/releases/", body, format="json")
    assert created.status_code == 201, created.content
    entry = AuditEntry.objects.get(action="allow_mixed_provenance", resource_id=created.json()["id"])
    assert entry.actor_name == "platform-admin" and "Mixed provenance" in entry.changes["problem"]


def test_new_gateways_run_the_default_release_images(alice_api, cluster, release) -> None:
    set_policy(cluster, DENY)
    created = alice_api.post("/api/v1/gateways/", {"name": "edge", "cluster": "east"}, format="json")
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["image"] == "" and body["supervisor_image"] == ""
    assert body["desired_images"] == {"image": GW, "supervisor_image": SV, "overridden": False}
    assert body["release"] == "v1" and body["status"]["deployed_images"] is None
    listed = alice_api.get("/api/v1/gateways/").json()["results"][0]
    assert listed["desired_images"] == body["desired_images"] and listed["status"]["deployed_images"] is None


def test_a_gateway_without_images_needs_a_release_that_has_them(alice_api, cluster) -> None:
    GatewayRelease.objects.create(name="bare", chart=str(MIRROR_CHART), default=True)
    fields = error_fields(alice_api.post("/api/v1/gateways/", {"name": "edge", "cluster": "east"}, format="json"))
    assert fields["image"] == ["No gateway image: neither the gateway nor its release names one."]
    assert fields["supervisor_image"] == ["No supervisor image: neither the gateway nor its release names one."]
    assert not Gateway.objects.exists()


@pytest.mark.parametrize(
    ("policy", "override", "rule"),
    [
        (DENY, {"image": "docker.io/attacker/miner:latest"}, "rule overrides=deny"),
        (TEAM_ONLY, {"image": "docker.io/attacker/miner:latest"}, "rule repositories: reg.example.com:5000/team/"),
        (TEAM_ONLY, {"supervisor_image": "reg.example.com:5000/team/sv:1"}, "rule require_digest"),
    ],
)
def test_a_tenant_override_outside_the_policy_is_a_400_naming_the_rule(
    alice_api, cluster, release, policy: dict, override: dict, rule: str
) -> None:
    set_policy(cluster, policy)
    body = {"name": "edge", "cluster": "east", **override}
    fields = error_fields(alice_api.post("/api/v1/gateways/", body, format="json"))
    (field,) = override
    assert rule in " ".join(fields[field]) and "cluster east's image_policy" in " ".join(fields[field])
    assert not Gateway.objects.exists()
    plan = alice_api.post("/api/v1/gateways/plan/", body, format="json")
    assert plan.status_code == 400


def test_the_platform_setting_applies_where_a_cluster_has_no_policy(alice_api, cluster, release, settings) -> None:
    from controlplane.image_policy import ImagePolicy

    settings.GATEWAY_IMAGE_POLICY = ImagePolicy(source="platform setting GATEWAY_IMAGE_OVERRIDES")
    fields = error_fields(
        alice_api.post("/api/v1/gateways/", {"name": "e", "cluster": "east", "image": GW}, format="json")
    )
    assert "GATEWAY_IMAGE_OVERRIDES" in fields["image"][0] and "overrides=deny" in fields["image"][0]


def test_overrides_inside_the_policy_are_kept_exactly(alice_api, cluster, release) -> None:
    set_policy(cluster, TEAM_ONLY)
    pair = {
        "image": f"reg.example.com:5000/team/gw:2@{DIGEST}",
        "supervisor_image": f"reg.example.com:5000/team/sv@{DIGEST}",
    }
    created = alice_api.post("/api/v1/gateways/", {"name": "edge", "cluster": "east", **pair}, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["desired_images"] == {**pair, "overridden": True}


def test_an_override_of_mixed_provenance_is_a_400(alice_api, cluster, release) -> None:
    body = {"name": "edge", "cluster": "east", "image": "quay.io/someone/openshell-gateway:16112bc"}
    fields = error_fields(alice_api.post("/api/v1/gateways/", body, format="json"))
    assert "Mixed provenance" in fields["supervisor_image"][0]
    assert not Gateway.objects.exists()


OPS_PAIR = {"image": "reg.example.com/ops/gw:9", "supervisor_image": f"reg.example.com/ops/sv@{DIGEST}"}


def image_policy_verdicts(gateway: Gateway) -> tuple[tuple[str, str], dict[str, str]]:
    """The worker's ImagePolicy condition (status, reason) for the stored gateway, and what a rollout to a release
    with images would remove from it."""
    gateway = Gateway.objects.select_related("cluster", "owner", "release").get(pk=gateway.pk)
    status, reason, _ = build_request(gateway, CHART, NOW).image_policy
    target = GatewayRelease.objects.create(name="v9", chart=str(MIRROR_CHART), image=GW, supervisor_image=SV)
    dropped = dropped_overrides(gateway.pk, target.pk)
    target.delete()
    return (status, reason), dropped


def test_platform_admins_may_override_images_whatever_the_policy_as_an_audited_exception(
    admin_api, cluster, release
) -> None:
    """API and worker give one verdict: the admin's override is kept (ImagePolicy=True, AdminOverride), and a
    rollout leaves it in place."""
    set_policy(cluster, DENY)
    created = admin_api.post("/api/v1/gateways/", {"name": "edge", "cluster": "east", **OPS_PAIR}, format="json")
    assert created.status_code == 201, created.content
    gateway = Gateway.objects.get(pk=created.json()["id"])
    assert gateway.image_override_by_admin is True
    assert image_policy_verdicts(gateway) == (("True", "AdminOverride"), {})
    entry = AuditEntry.objects.get(action="allow_image_override", resource_id=str(gateway.pk))
    assert entry.actor_name == "platform-admin" and "overrides=deny" in entry.changes["problems"]["image"]


def test_an_admin_override_of_a_tenant_gateway_is_kept_until_the_images_change(
    admin_api, alice_api, cluster, release
) -> None:
    set_policy(cluster, DENY)
    created = alice_api.post("/api/v1/gateways/", {"name": "edge", "cluster": "east"}, format="json").json()
    url = f"/api/v1/gateways/{created['id']}/"
    assert admin_api.patch(url, OPS_PAIR, format="json").status_code == 200
    gateway = Gateway.objects.get(pk=created["id"])
    assert image_policy_verdicts(gateway) == (("True", "AdminOverride"), {})
    # The tenant's other changes keep the exception; an admin's write that sends no images does not grant one.
    assert alice_api.patch(url, {"labels": {"a": "b"}}, format="json").status_code == 200
    assert admin_api.patch(url, {"labels": {"a": "c"}}, format="json").status_code == 200
    assert Gateway.objects.get(pk=created["id"]).image_override_by_admin is True
    assert AuditEntry.objects.filter(action="allow_image_override").count() == 1
    # The tenant's own images are the tenant's: the policy applies, and dropping them ends the exception.
    refused = alice_api.patch(url, {"image": "reg.example.com/ops/gw:10"}, format="json")
    assert "overrides=deny" in " ".join(error_fields(refused)["image"])
    assert alice_api.patch(url, {"image": "", "supervisor_image": ""}, format="json").status_code == 200
    assert Gateway.objects.get(pk=created["id"]).image_override_by_admin is False


def test_a_tenant_override_the_policy_no_longer_allows_gets_the_same_verdict_from_worker_and_rollout(
    alice_api, cluster, release
) -> None:
    pair = {"image": "reg.example.com/team/gw:1", "supervisor_image": "reg.example.com/team/sv:1"}
    created = alice_api.post("/api/v1/gateways/", {"name": "edge", "cluster": "east", **pair}, format="json")
    assert created.status_code == 201, created.content
    set_policy(cluster, DENY)
    gateway = Gateway.objects.get(pk=created.json()["id"])
    assert image_policy_verdicts(gateway) == (("False", "NotAllowed"), {"image": "", "supervisor_image": ""})


def test_a_policy_change_keeps_running_gateways_running_with_the_condition_set(
    admin_api, alice_api, cluster, release
) -> None:
    pair = {"image": "reg.example.com:5000/team/gw:1", "supervisor_image": "reg.example.com:5000/team/sv:1"}
    created = alice_api.post("/api/v1/gateways/", {"name": "edge", "cluster": "east", **pair}, format="json").json()
    Gateway.objects.filter(pk=created["id"]).update(phase=Phase.RUNNING, observed_generation=1)
    changed = admin_api.patch(f"/api/v1/clusters/{cluster.pk}/", {"image_policy": TEAM_ONLY}, format="json")
    assert changed.status_code == 200, changed.content
    assert changed.json()["image_policy"] == TEAM_ONLY
    gateway = Gateway.objects.get(pk=created["id"])
    assert gateway.phase == Phase.RUNNING and gateway.image == pair["image"] and gateway.generation == 1
    (condition,) = [c for c in gateway.conditions if c["type"] == "ImagePolicy"]
    assert condition["status"] == "False" and condition["reason"] == "NotAllowed"
    assert "require_digest" in condition["message"]
    # The next spec change must fix it: a label alone is refused, dropping the override is accepted.
    refused = alice_api.patch(f"/api/v1/gateways/{created['id']}/", {"labels": {"a": "b"}}, format="json")
    assert "require_digest" in " ".join(error_fields(refused)["image"])
    fixed = alice_api.patch(f"/api/v1/gateways/{created['id']}/", {"image": "", "supervisor_image": ""}, format="json")
    assert fixed.status_code == 200 and fixed.json()["desired_images"]["image"] == GW
    # Back under a policy that allows it, the condition turns True again.
    Gateway.objects.filter(pk=created["id"]).update(**pair)
    admin_api.patch(f"/api/v1/clusters/{cluster.pk}/", {"image_policy": None}, format="json")
    (condition,) = [c for c in Gateway.objects.get(pk=created["id"]).conditions if c["type"] == "ImagePolicy"]
    assert condition["status"] == "True" and condition["reason"] == "Allowed"


@pytest.mark.parametrize(
    ("policy", "message"),
    [
        ({"overrides": "allow"}, "needs repositories"),
        ({"overrides": "allow", "repositories": ["nginx"]}, "is not a repository"),
        ({"overrides": "sometimes"}, "is not a valid choice"),
        ({"overrides": "deny", "extra": 1}, "Unknown or read-only field"),
    ],
)
def test_an_unusable_cluster_policy_is_a_400(admin_api, cluster, policy: dict, message: str) -> None:
    response = admin_api.patch(f"/api/v1/clusters/{cluster.pk}/", {"image_policy": policy}, format="json")
    assert response.status_code == 400 and message in str(response.json()["error"]["fields"]), response.content
    cluster.refresh_from_db()
    assert cluster.image_policy is None
