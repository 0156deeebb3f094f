"""Gateway API: validation, tenancy, generation bumps, read-only status, delete marks Deleting."""

from __future__ import annotations

import pytest

from controlplane.models import AuditEntry
from gateways.choices import Phase
from gateways.models import Gateway

pytestmark = pytest.mark.django_db

DIGEST = "sha256:" + "a" * 64


def body(**overrides: object) -> dict:
    return {
        "name": "edge",
        "cluster": "east",
        "image": "registry.example.com:5000/openshell/gateway:1.2.3",
        "supervisor_image": f"registry.example.com:5000/openshell/supervisor@{DIGEST}",
        **overrides,
    }


@pytest.fixture
def created(alice_api, cluster) -> dict:
    response = alice_api.post("/api/v1/gateways/", body(), format="json")
    assert response.status_code == 201, response.content
    return response.json()


def url(gateway: dict) -> str:
    return f"/api/v1/gateways/{gateway['id']}/"


def test_create_assigns_namespace_owner_and_generation(created, alice) -> None:
    assert created["namespace"].startswith("gw-edge-") and len(created["namespace"]) == len("gw-edge-") + 8
    assert created["owner"] == alice.username
    assert created["generation"] == 1
    assert created["status"]["phase"] == Phase.PENDING
    assert created["route"] == {"enabled": True, "host": ""}
    assert created["oidc"] == {
        "enabled": False,
        "issuer": "",
        "audience": "",
        "roles_claim": "",
        "admin_role": "",
        "user_role": "",
        "ca_configmap": "",
    }
    assert created["database"] == {"provider": "embedded"}


def test_spec_change_bumps_generation_and_noop_does_not(alice_api, created) -> None:
    same = alice_api.patch(url(created), {"image": created["image"], "labels": {}}, format="json")
    assert same.status_code == 200 and same.json()["generation"] == 1
    newer = "registry.example.com:5000/openshell/gateway:1.2.4"
    changed = alice_api.patch(url(created), {"image": newer}, format="json")
    assert changed.status_code == 200 and changed.json()["generation"] == 2
    again = alice_api.put(url(created), {**body(), "image": newer}, format="json")
    assert again.status_code == 200 and again.json()["generation"] == 2
    removed_route = alice_api.patch(url(created), {"route": {"enabled": False}}, format="json")
    assert removed_route.json()["generation"] == 3 and removed_route.json()["route"] == {"enabled": False, "host": ""}
    assert Gateway.objects.get(pk=created["id"]).generation == 3


def test_status_fields_are_read_only(alice_api, created) -> None:
    response = alice_api.patch(url(created), {"status": {"phase": "Running"}}, format="json")
    assert response.status_code == 400
    for field in ("generation", "namespace", "id"):
        assert alice_api.patch(url(created), {field: "x"}, format="json").status_code == 400
    assert Gateway.objects.get(pk=created["id"]).phase == Phase.PENDING


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"name": "Edge"}, "name"),
        ({"name": "a" * 41}, "name"),
        ({"name": "edge; rm -rf /"}, "name"),
        ({"name": ["edge"]}, "name"),
        ({"image": "UPPER/case:1"}, "image"),
        ({"image": "repo@sha256:short"}, "image"),
        ({"image": "../../etc/passwd"}, "image"),
        ({"image": "repo:tag with space"}, "image"),
        ({"image": 42}, "image"),
        ({"supervisor_image": ""}, "supervisor_image"),
        ({"cluster": "nowhere"}, "cluster"),
        ({"cluster": "east\x00"}, "cluster"),
        ({"cluster": 7}, "cluster"),
        ({"route": {"host": "not a host"}}, "route.host"),
        ({"oidc": {"issuer": "http://insecure.example.com"}}, "oidc.issuer"),
        ({"oidc": {"issuer": "https://id.example.com", "audience": "a\x00b"}}, "oidc.audience"),
        ({"database": {"provider": "external"}}, "database.uri"),
        ({"database": {"provider": "embedded", "uri": "postgres://x@y/z"}}, "database.uri"),
        ({"labels": {"bad key!": "v"}}, "labels"),
        ({"labels": ["a"]}, "labels"),
        ({"suspended": "maybe"}, "suspended"),
        ({"unexpected": 1}, "unexpected"),
        ({"route": {"host": "edge.apps.east.example.com", "hots": "x"}}, "route.hots"),
        ({"oidc": {"issuer": "https://id.example.com", "audiance": "a"}}, "oidc.audiance"),
        ({"database": {"provider": "embedded", "url": "postgres://x@y/z"}}, "database.url"),
    ],
)
def test_bad_input_is_400_and_nothing_is_stored(alice_api, cluster, overrides: dict, field: str) -> None:
    response = alice_api.post("/api/v1/gateways/", body(**overrides), format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()["error"]["fields"], response.json()
    assert not Gateway.objects.exists()


def test_non_object_body_is_400(alice_api, cluster) -> None:
    response = alice_api.post("/api/v1/gateways/", ["not", "an", "object"], format="json")
    assert response.status_code == 400
    response = alice_api.post("/api/v1/gateways/", "{broken", content_type="application/json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "parse_error"


def test_database_uri_is_write_only_and_encrypted(alice_api, cluster) -> None:
    uri = "postgresql://gw:hunter2-secret@db.example.com/gw"
    response = alice_api.post("/api/v1/gateways/", body(database={"provider": "external", "uri": uri}), format="json")
    assert response.status_code == 201, response.content
    assert "hunter2-secret" not in response.content.decode()
    assert "hunter2-secret" not in alice_api.get(url(response.json())).content.decode()
    assert Gateway.objects.get(pk=response.json()["id"]).database_uri == uri
    assert not Gateway.objects.filter(database_uri__contains="hunter2").exists()


def test_duplicate_name_for_same_owner_is_409(alice_api, created) -> None:
    response = alice_api.post("/api/v1/gateways/", body(), format="json")
    assert response.status_code == 409
    assert Gateway.objects.count() == 1


def test_same_name_for_another_owner_is_allowed(bob_api, created) -> None:
    assert bob_api.post("/api/v1/gateways/", body(), format="json").status_code == 201


def test_tenants_see_only_their_own(alice_api, bob_api, admin_api, created) -> None:
    assert bob_api.get("/api/v1/gateways/").json()["count"] == 0
    assert alice_api.get("/api/v1/gateways/").json()["count"] == 1
    assert admin_api.get("/api/v1/gateways/").json()["count"] == 1
    missing = bob_api.get("/api/v1/gateways/6f1c1f5e-0000-4000-8000-000000000000/").json()
    for response in (
        bob_api.get(url(created)),
        bob_api.patch(url(created), {"suspended": True}, format="json"),
        bob_api.delete(url(created)),
        bob_api.post(f"{url(created)}retry/"),
        bob_api.post(f"{url(created)}resync/"),
        bob_api.get(f"{url(created)}events/"),
    ):
        assert response.status_code == 404, response.content
        assert response.json()["error"]["code"] == missing["error"]["code"] == "not_found"
        assert response.json()["error"]["message"] == missing["error"]["message"]
    gateway = Gateway.objects.get(pk=created["id"])
    assert gateway.suspended is False and gateway.deletion_requested_at is None and gateway.generation == 1
    assert not AuditEntry.objects.filter(actor_name="bob").exists()


def test_anonymous_is_401(anon_api, created) -> None:
    assert anon_api.get("/api/v1/gateways/").status_code == 401
    assert anon_api.get(url(created)).status_code == 401
    assert anon_api.post("/api/v1/gateways/", body(), format="json").status_code == 401


def test_unknown_gateway_is_404(alice_api, cluster) -> None:
    response = alice_api.get("/api/v1/gateways/6f1c1f5e-0000-4000-8000-000000000000/")
    assert response.status_code == 404
    assert alice_api.get("/api/v1/gateways/not-a-uuid/").status_code == 404


def test_name_and_cluster_are_immutable(alice_api, admin_api, created) -> None:
    admin_api.post(
        "/api/v1/clusters/",
        {"name": "west", "kubeconfig": _kubeconfig(), "base_domain": "w.example.com"},
        format="json",
    )
    assert alice_api.patch(url(created), {"name": "other"}, format="json").status_code == 400
    assert alice_api.patch(url(created), {"cluster": "west"}, format="json").status_code == 400


def test_delete_marks_deleting_and_returns_202(alice_api, created) -> None:
    response = alice_api.delete(url(created))
    assert response.status_code == 202
    assert response.json()["status"]["phase"] == Phase.DELETING
    assert response.json()["status"]["deletion_requested_at"]
    assert Gateway.objects.filter(pk=created["id"]).exists()
    late = alice_api.patch(url(created), {"suspended": True}, format="json")
    assert late.status_code == 409


def test_force_delete_is_for_platform_admins_only(alice_api, admin_api, created) -> None:
    refused = alice_api.delete(url(created) + "?force=true")
    assert refused.status_code == 403
    assert "Only a platform admin may force a delete" in refused.json()["error"]["message"], refused.json()
    gateway = Gateway.objects.get(pk=created["id"])
    assert (gateway.deletion_requested_at, gateway.force_deletion) == (None, False)
    assert admin_api.delete(url(created) + "?force=maybe").status_code == 400
    Gateway.objects.filter(pk=created["id"]).update(failure_count=3)
    assert alice_api.delete(url(created)).status_code == 202
    gateway.refresh_from_db()
    assert (gateway.force_deletion, gateway.failure_count) == (False, 0), "a delete counts its own failures"
    forced = admin_api.delete(url(created) + "?force=true")
    assert forced.status_code == 202 and forced.json()["status"]["phase"] == Phase.DELETING
    assert Gateway.objects.get(pk=created["id"]).force_deletion is True
    audit = AuditEntry.objects.filter(resource_id=created["id"], action="delete").order_by("id")
    assert [entry.changes for entry in audit] == [{}, {"force_deletion": True}]


def test_list_is_paginated_with_a_bound(alice_api, cluster) -> None:
    for i in range(3):
        assert alice_api.post("/api/v1/gateways/", body(name=f"gw{i}"), format="json").status_code == 201
    page = alice_api.get("/api/v1/gateways/?limit=2").json()
    assert page["count"] == 3 and len(page["results"]) == 2 and page["next"]
    huge = alice_api.get("/api/v1/gateways/?limit=100000").json()
    assert len(huge["results"]) == 3
    filtered = alice_api.get("/api/v1/gateways/?search=gw1").json()
    assert [g["name"] for g in filtered["results"]] == ["gw1"]
    assert alice_api.get("/api/v1/gateways/?phase=Running").json()["count"] == 0


def test_oversized_body_is_413(alice_api, cluster, settings) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2048
    response = alice_api.post("/api/v1/gateways/", body(labels={"k": "v" * 4000}), format="json")
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "payload_too_large"
    assert not Gateway.objects.exists()


def _kubeconfig() -> str:
    from tests.helpers import KUBECONFIG

    return KUBECONFIG


def test_staff_who_are_not_superusers_are_tenants(make_user, alice_api, created) -> None:
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    staffer = make_user("staffer")
    staffer.is_staff = True
    staffer.save()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=staffer).key}")
    assert client.get("/api/v1/gateways/").json()["count"] == 0
    assert client.get(url(created)).status_code == 404
    assert client.get("/api/v1/clusters/").status_code == 403


def test_a_new_gateways_release_is_unique_like_its_namespace(created) -> None:
    """The chart names cluster-scoped objects after the release, so two owners' `edge` must not share one."""
    gateway = Gateway.objects.get(pk=created["id"])
    assert gateway.helm_release == gateway.helm_release_name == f"edge-{gateway.pk.hex[:8]}"
    assert created["namespace"].endswith(gateway.helm_release)


def test_the_longest_name_keeps_every_chart_object_name_distinct(alice_api, cluster) -> None:
    """`<release>-openshell-sandbox` truncated to 63 characters must not become the gateway's own ServiceAccount."""
    from gateways.values import chart_fullname, sandbox_service_account

    response = alice_api.post("/api/v1/gateways/", body(name="a" * 40), format="json")
    assert response.status_code == 201, response.content
    release = Gateway.objects.get(pk=response.json()["id"]).helm_release
    assert len(release) == 24 + 1 + 8
    assert sandbox_service_account(release) == f"{chart_fullname(release)}-sandbox"
    assert len(f"{chart_fullname(release)}-server-external-tls") <= 63


def test_the_migration_keeps_existing_gateways_release_names(created, alice) -> None:
    """Gateways from before release names were stored keep their name as the release: nothing is renamed."""
    from importlib import import_module

    from django.apps import apps

    Gateway.objects.filter(pk=created["id"]).update(helm_release_name="")
    import_module("gateways.migrations.0008_gateway_helm_release_name").keep_existing_release_names(apps, None)
    assert Gateway.objects.get(pk=created["id"]).helm_release == "edge"
