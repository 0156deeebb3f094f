"""ManagedCluster API: admin-only, kubeconfig write-only and encrypted at rest."""

from __future__ import annotations

import json

import pytest
from django.db import connection

from controlplane.models import ManagedCluster
from tests.helpers import KUBECONFIG

pytestmark = pytest.mark.django_db

SECRET = "super-secret-token-value"


def create_body(**overrides: object) -> dict:
    return {"name": "west", "kubeconfig": KUBECONFIG, "base_domain": "apps.west.example.com", **overrides}


def test_admin_creates_cluster_and_kubeconfig_is_never_returned(admin_api) -> None:
    created = admin_api.post("/api/v1/clusters/", create_body(), format="json")
    assert created.status_code == 201, created.content
    assert "kubeconfig" not in created.json()
    cluster_id = created.json()["id"]
    for response in (
        created,
        admin_api.get("/api/v1/clusters/"),
        admin_api.get(f"/api/v1/clusters/{cluster_id}/"),
        admin_api.patch(f"/api/v1/clusters/{cluster_id}/", {"base_domain": "b.example.com"}, format="json"),
    ):
        assert response.status_code in (200, 201)
        assert SECRET not in response.content.decode()
        assert "kubeconfig" not in json.dumps(response.json())


def test_kubeconfig_is_encrypted_at_rest(admin_api) -> None:
    cluster_id = admin_api.post("/api/v1/clusters/", create_body(), format="json").json()["id"]
    with connection.cursor() as cursor:
        cursor.execute("SELECT kubeconfig FROM controlplane_managedcluster WHERE id = %s", [cluster_id])
        (stored,) = cursor.fetchone()
    assert SECRET not in stored and "clusters" not in stored
    assert ManagedCluster.objects.get(pk=cluster_id).kubeconfig == KUBECONFIG


def test_status_is_read_only(admin_api, cluster) -> None:
    response = admin_api.patch(f"/api/v1/clusters/{cluster.pk}/", {"status": {"reachable": True}}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["fields"]["status"]
    cluster.refresh_from_db()
    assert cluster.reachable is None


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("name", "Bad_Name"),
        ("name", "x" * 64),
        ("name", 12),
        ("flavour", "nomad"),
        ("kubeconfig", "not: [valid"),
        ("kubeconfig", "apiVersion: v1\nkind: Config\n"),
        ("kubeconfig", KUBECONFIG.replace("{token: super-secret-token-value}", "{exec: {command: /bin/sh}}")),
        ("kubeconfig", KUBECONFIG.replace("{token: super-secret-token-value}", "{client-key: /etc/shadow}")),
        ("kubeconfig", KUBECONFIG.replace('"http://127.0.0.1:1"}', "'https://x', certificate-authority: /etc/x}")),
        ("base_domain", "-bad-.example"),
        ("gateway_api", "perhaps"),
        ("network_policy", "perhaps"),
        ("trusted_ca_pem", "hello"),
    ],
)
def test_invalid_input_gets_400_with_field(admin_api, field: str, value: object) -> None:
    response = admin_api.post("/api/v1/clusters/", create_body(**{field: value}), format="json")
    assert response.status_code == 400, response.content
    body = response.json()["error"]
    assert body["status"] == 400 and field in body["fields"]
    assert not ManagedCluster.objects.exists()


def test_network_policy_is_off_by_default_and_a_platform_admin_turns_it_on(admin_api) -> None:
    created = admin_api.post("/api/v1/clusters/", create_body(), format="json")
    assert created.status_code == 201 and created.json()["network_policy"] is False
    url = f"/api/v1/clusters/{created.json()['id']}/"
    changed = admin_api.patch(url, {"network_policy": True}, format="json")
    assert changed.status_code == 200 and changed.json()["network_policy"] is True
    assert ManagedCluster.objects.get(name="west").network_policy is True
    for value, names in (("true", ["west"]), ("false", [])):
        listed = admin_api.get("/api/v1/clusters/", {"network_policy": value}).json()["results"]
        assert [c["name"] for c in listed] == names


def test_duplicate_name_is_409(admin_api, cluster) -> None:
    response = admin_api.post("/api/v1/clusters/", create_body(name=cluster.name), format="json")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "conflict"
    assert ManagedCluster.objects.count() == 1


def test_non_admin_gets_403_and_anonymous_401(alice_api, anon_api, cluster) -> None:
    assert alice_api.get("/api/v1/clusters/").status_code == 403
    assert alice_api.post("/api/v1/clusters/", create_body(), format="json").status_code == 403
    response = anon_api.get("/api/v1/clusters/")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"


def test_unknown_cluster_is_404_in_error_shape(admin_api) -> None:
    response = admin_api.get("/api/v1/clusters/00000000-0000-0000-0000-000000000000/")
    assert response.status_code == 404
    assert response.json()["error"]["status"] == 404


def test_unknown_field_is_400(admin_api) -> None:
    response = admin_api.post("/api/v1/clusters/", create_body(colour="blue"), format="json")
    assert response.status_code == 400
    assert "colour" in response.json()["error"]["fields"]


def test_name_is_immutable(admin_api, cluster) -> None:
    response = admin_api.patch(f"/api/v1/clusters/{cluster.pk}/", {"name": "renamed"}, format="json")
    assert response.status_code == 400
    cluster.refresh_from_db()
    assert cluster.name == "east"


def test_cluster_with_gateways_cannot_be_deleted(admin_api, cluster, alice) -> None:
    from gateways.models import Gateway

    gateway = Gateway(owner=alice, cluster=cluster, name="g1", image="r/a:1", supervisor_image="r/s:1")
    gateway.assign_namespace()
    gateway.save()
    assert admin_api.delete(f"/api/v1/clusters/{cluster.pk}/").status_code == 409
    assert ManagedCluster.objects.filter(pk=cluster.pk).exists()
