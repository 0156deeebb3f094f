"""Images through the API: releases own them (one provenance, or an audited exception), gateways take the
default release's, and tenants override them only as the image policy allows. Every refusal is a 400 that names
its rule and stores nothing."""

from __future__ import annotations

from typing import Any

import pytest

from controlplane.models import AuditEntry, ManagedCluster
from gateways.choices import Phase
from gateways.models import Gateway, GatewayRelease
from tests.fixtures.charts import MIRROR_CHART

pytestmark = pytest.mark.django_db

GW = "ghcr.io/nvidia/openshell/gateway:1.0.0"
SV = "ghcr.io/nvidia/openshell/supervisor:1.0.0"
DIGEST = "sha256:" + "c" * 64
DENY = {"overrides": "deny"}
TEAM_ONLY = {"overrides": "allow", "repositories": ["reg.example.com:5000/team/"], "require_digest": True}


@pytest.fixture
def release(db: None) -> GatewayRelease:
    return GatewayRelease.objects.create(name="v1", chart=str(MIRROR_CHART), image=GW, supervisor_image=SV,
                                         default=True)


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
    body = release_body(image="quay.io/someone/openshell-gateway:16112bc",
                        supervisor_image="ghcr.io/nvidia/openshell/supervisor:16112bc")
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
    fields = error_fields(alice_api.post("/api/v1/gateways/", {"name": "e", "cluster": "east", "image": GW},
                                         format="json"))
    assert "GATEWAY_IMAGE_OVERRIDES" in fields["image"][0] and "overrides=deny" in fields["image"][0]


def test_overrides_inside_the_policy_are_kept_exactly(alice_api, cluster, release) -> None:
    set_policy(cluster, TEAM_ONLY)
    pair = {"image": f"reg.example.com:5000/team/gw:2@{DIGEST}",
            "supervisor_image": f"reg.example.com:5000/team/sv@{DIGEST}"}
    created = alice_api.post("/api/v1/gateways/", {"name": "edge", "cluster": "east", **pair}, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["desired_images"] == {**pair, "overridden": True}


def test_an_override_of_mixed_provenance_is_a_400(alice_api, cluster, release) -> None:
    body = {"name": "edge", "cluster": "east", "image": "quay.io/someone/openshell-gateway:16112bc"}
    fields = error_fields(alice_api.post("/api/v1/gateways/", body, format="json"))
    assert "Mixed provenance" in fields["supervisor_image"][0]
    assert not Gateway.objects.exists()


def test_platform_admins_may_override_images_whatever_the_policy(admin_api, cluster, release) -> None:
    set_policy(cluster, DENY)
    body = {"name": "edge", "cluster": "east", "image": "reg.example.com/ops/gw:9",
            "supervisor_image": "reg.example.com/ops/sv:9"}
    assert admin_api.post("/api/v1/gateways/", body, format="json").status_code == 201


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
