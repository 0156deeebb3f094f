"""Release and rollout endpoints without a worker: validation, planning, claims (409), tenancy, operations, schema."""

from __future__ import annotations

import pytest

from controlplane.models import ManagedCluster
from gateways.models import Gateway, GatewayRelease
from rollouts.models import Rollout
from tests.fixtures.charts import MIRROR_CHART
from tests.helpers import KUBECONFIG

pytestmark = pytest.mark.django_db


@pytest.fixture
def v1(db) -> GatewayRelease:
    return GatewayRelease.objects.create(name="v1", chart=str(MIRROR_CHART), default=True)


@pytest.fixture
def v2(db) -> GatewayRelease:
    return GatewayRelease.objects.create(name="v2", chart=str(MIRROR_CHART), status="Ready")


@pytest.fixture
def fleet(alice, v1) -> list[Gateway]:
    gateways = []
    for cluster_name in ("east", "west"):
        cluster = ManagedCluster.objects.create(
            name=cluster_name, kubeconfig=KUBECONFIG, base_domain=f"{cluster_name}.example.com"
        )
        for index in range(3):
            gateway = Gateway(
                owner=alice,
                cluster=cluster,
                name=f"{cluster_name}{index}",
                image="gw:1",
                supervisor_image="sv:1",
                labels={"tier": "prod" if index else "dev"},
            )
            gateway.assign_namespace()
            gateway.save()
            gateways.append(gateway)
    return gateways


def rollout_body(**overrides: object) -> dict:
    return {
        "name": "to-v2",
        "target_release": "v2",
        "waves": {"percentages": [20, 100]},
        "max_parallel": 2,
        "bake_seconds": 1,
        "gate_timeout_seconds": 5,
        **overrides,
    }


def test_releases_check_pinning_and_values_keys_against_a_local_chart(admin_api) -> None:
    unpinned = admin_api.post("/api/v1/releases/", {"name": "up", "chart": "oci://r.example/c"}, format="json")
    assert unpinned.status_code == 400 and "version" in unpinned.json()["error"]["fields"]
    bad = {"name": "bad", "chart": str(MIRROR_CHART), "values": {"networkPolicy": {"enabld": True}, "image": "x"}}
    refused = admin_api.post("/api/v1/releases/", bad, format="json")
    assert refused.status_code == 400
    messages = " ".join(refused.json()["error"]["fields"]["values"])
    assert "networkPolicy.enabld" in messages and "image" in messages
    good = {"name": "good", "chart": str(MIRROR_CHART), "values": {"networkPolicy": {"enabled": True}}}
    created = admin_api.post("/api/v1/releases/", good, format="json")
    assert created.status_code == 201 and created.json()["status"]["status"] == "Pending"
    release = created.json()["id"]
    assert admin_api.patch(f"/api/v1/releases/{release}/", {"chart": "/elsewhere"}, format="json").status_code == 400


def test_exactly_one_default_and_new_gateways_get_it(admin_api, v1, v2, alice_api, cluster) -> None:
    assert admin_api.patch(f"/api/v1/releases/{v2.pk}/", {"default": True}, format="json").status_code == 200
    assert list(GatewayRelease.objects.filter(default=True).values_list("name", flat=True)) == ["v2"]
    body = {"name": "edge", "cluster": "east", "image": "gw:1", "supervisor_image": "sv:1"}
    created = alice_api.post("/api/v1/gateways/", body, format="json")
    assert created.status_code == 201 and created.json()["release"] == "v2"
    assert admin_api.delete(f"/api/v1/releases/{v2.pk}/").status_code == 409  # the default
    assert admin_api.delete(f"/api/v1/releases/{v1.pk}/").status_code == 204


def test_a_release_that_gateways_run_is_a_409_and_is_kept(admin_api, fleet, v1, v2) -> None:
    assert admin_api.patch(f"/api/v1/releases/{v2.pk}/", {"default": True}, format="json").status_code == 200
    response = admin_api.delete(f"/api/v1/releases/{v1.pk}/")
    assert response.status_code == 409, response.content
    assert "still use this release" in response.json()["error"]["message"]
    assert GatewayRelease.objects.filter(pk=v1.pk).exists()
    assert set(Gateway.objects.values_list("release__name", flat=True)) == {"v1"}


def test_create_plans_waves_and_targets_the_selection(admin_api, fleet, v2) -> None:
    response = admin_api.post("/api/v1/rollouts/", rollout_body(selector={"labels": {"tier": "prod"}}), format="json")
    assert response.status_code == 201, response.content
    status = response.json()["status"]
    assert status["phase"] == "Pending" and status["wave_count"] == 2
    assert [w["size"] for w in status["waves"]] == [1, 3] and status["total"]["counts"]["pending"] == 4
    targets = admin_api.get(f"/api/v1/rollouts/{response.json()['id']}/targets/").json()["results"]
    assert sorted(t["gateway_name"] for t in targets) == ["east1", "east2", "west1", "west2"]
    assert {t["previous_release"] for t in targets} == {"v1"}
    events = admin_api.get(f"/api/v1/rollouts/{response.json()['id']}/events/").json()["results"]
    assert [e["reason"] for e in events] == ["Created"]


def test_overlapping_rollouts_are_409_naming_the_other(admin_api, fleet, v2) -> None:
    first = admin_api.post("/api/v1/rollouts/", rollout_body(selector={"clusters": ["east"]}), format="json")
    assert first.status_code == 201
    clash = admin_api.post("/api/v1/rollouts/", rollout_body(name="again"), format="json")
    assert clash.status_code == 409 and "'to-v2'" in clash.json()["error"]["message"]
    admin_api.post(f"/api/v1/rollouts/{Rollout.objects.get().pk}/abort/")
    assert admin_api.post("/api/v1/rollouts/", rollout_body(name="again"), format="json").status_code == 201


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"waves": {"clusters": [["east"]]}}, "waves"),
        ({"selector": {"clusters": ["nowhere"]}}, "waves"),
        ({"max_parallel": 0}, "max_parallel"),
        ({"target_release": "missing"}, "target_release"),
        ({"surprise": 1}, "surprise"),
        ({"selector": {"label": {"tier": "prod"}}}, "selector.label"),
        ({"waves": {"percentage": [10, 100]}}, "waves.percentage"),
    ],
)
def test_bad_rollouts_are_400(admin_api, fleet, v2, overrides, field) -> None:
    response = admin_api.post("/api/v1/rollouts/", rollout_body(**overrides), format="json")
    assert response.status_code == 400 and field in response.json()["error"]["fields"], response.content


def test_pause_resume_abort_and_their_conflicts(admin_api, fleet, v2) -> None:
    rollout = admin_api.post("/api/v1/rollouts/", rollout_body(), format="json").json()
    url = f"/api/v1/rollouts/{rollout['id']}"
    assert admin_api.post(f"{url}/resume/").status_code == 409
    paused = admin_api.post(f"{url}/pause/").json()["status"]
    assert paused["phase"] == "Paused" and paused["conditions"][0]["type"] == "Paused"
    assert paused["conditions"][0]["status"] == "True"
    assert admin_api.post(f"{url}/resume/").json()["status"]["phase"] == "Pending"  # it had not started yet
    assert admin_api.post(f"{url}/abort/").json()["status"]["phase"] == "Aborted"
    assert admin_api.post(f"{url}/pause/").status_code == 409
    reasons = [e["reason"] for e in admin_api.get(f"{url}/events/").json()["results"]]
    assert reasons == ["Aborted", "Resumed", "Paused", "Created"]


def test_tenants_get_403_on_create_and_404_on_rollouts(admin_api, alice_api, fleet, v2) -> None:
    assert alice_api.post("/api/v1/rollouts/", rollout_body(), format="json").status_code == 403
    rollout = admin_api.post("/api/v1/rollouts/", rollout_body(), format="json").json()
    assert alice_api.get(f"/api/v1/rollouts/{rollout['id']}/").status_code == 404
    assert alice_api.post(f"/api/v1/rollouts/{rollout['id']}/pause/").status_code == 404
    assert alice_api.get("/api/v1/rollouts/").json()["results"] == []
    assert alice_api.get("/api/v1/releases/").status_code == 403


def test_schema_documents_releases_and_rollouts(admin_api) -> None:
    schema = admin_api.get("/api/v1/schema/?format=json").json()
    paths = schema["paths"]
    for path in (
        "/api/v1/releases/",
        "/api/v1/rollouts/",
        "/api/v1/rollouts/{id}/pause/",
        "/api/v1/rollouts/{id}/resume/",
        "/api/v1/rollouts/{id}/abort/",
        "/api/v1/rollouts/{id}/events/",
    ):
        assert path in paths, path
    assert paths["/api/v1/rollouts/"]["post"]["operationId"] == "rollouts_create"
    assert "409" in paths["/api/v1/rollouts/{id}/pause/"]["post"]["responses"]
    status = schema["components"]["schemas"]["RolloutStatus"]["properties"]
    assert {"total", "waves", "blocked", "conditions"} <= set(status)


def test_console_pages_render_for_platform_admins_only(admin_api, admin_user, fleet, v2, client, make_user) -> None:
    rollout = admin_api.post("/api/v1/rollouts/", rollout_body(), format="json").json()
    client.force_login(admin_user)
    page = client.get(f"/admin/rollouts/rollout/{rollout['id']}/change/")
    assert page.status_code == 200 and b'id="cp-rollout-waves"' in page.content
    assert b'data-operation="pause"' in page.content and b'data-operation="resume"' not in page.content
    assert client.get("/admin/rollouts/rollout/").status_code == 200
    assert client.get("/admin/rollouts/rollout/add/").status_code == 200
    paused = client.post(f"/admin/rollouts/rollout/{rollout['id']}/operation/pause/")
    assert paused.status_code == 302 and Rollout.objects.get().phase == "Paused"
    client.force_login(make_user("staff-tenant", admin=False))
    assert client.get(f"/admin/rollouts/rollout/{rollout['id']}/change/").status_code in (302, 403)
