"""Route hosts: unique per cluster (a DB constraint on the effective host), confined to the cluster's domains."""

from __future__ import annotations

import threading

import pytest
from django.db import connections
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from controlplane.models import ManagedCluster
from gateways.models import Gateway
from tests.helpers import KUBECONFIG

HOST = "edge.apps.east.example.com"


def body(name: str = "edge", **overrides: object) -> dict:
    return {
        "name": name,
        "cluster": "east",
        "image": "r.example.com/gw:1",
        "supervisor_image": "r.example.com/sv:1",
        **overrides,
    }


def hosts() -> dict[str, str | None]:
    return dict(Gateway.objects.values_list("owner__username", "effective_route_host"))


@pytest.mark.django_db
def test_default_host_is_namespace_under_base_domain(alice_api, cluster) -> None:
    created = alice_api.post("/api/v1/gateways/", body(), format="json").json()
    gateway = Gateway.objects.get(pk=created["id"])
    assert gateway.effective_route_host == f"{created['namespace']}.apps.east.example.com"
    assert not gateway.effective_route_host.startswith("gw-gw-")
    assert alice_api.patch(f"/api/v1/gateways/{created['id']}/", {"route": None}, format="json").status_code == 200
    assert Gateway.objects.get(pk=created["id"]).effective_route_host is None


@pytest.mark.django_db
def test_another_tenants_host_is_409_and_the_owner_keeps_it(alice_api, bob_api, cluster) -> None:
    assert alice_api.post("/api/v1/gateways/", body(route={"host": HOST}), format="json").status_code == 201
    clash = bob_api.post("/api/v1/gateways/", body(route={"host": HOST}), format="json")
    assert clash.status_code == 409, clash.content
    assert "route hosts are unique per cluster" in clash.json()["error"]["message"]
    assert hosts() == {"alice": HOST}

    other = bob_api.post("/api/v1/gateways/", body(route={"host": "b.apps.east.example.com"}), format="json").json()
    moved = bob_api.patch(f"/api/v1/gateways/{other['id']}/", {"route": {"host": HOST}}, format="json")
    assert moved.status_code == 409
    assert hosts() == {"alice": HOST, "bob": "b.apps.east.example.com"}
    assert Gateway.objects.get(pk=other["id"]).generation == 1


@pytest.mark.django_db
def test_a_taken_host_with_another_error_is_400_for_that_error_alone(alice_api, bob_api, cluster) -> None:
    assert alice_api.post("/api/v1/gateways/", body(route={"host": HOST}), format="json").status_code == 201
    response = bob_api.post(
        "/api/v1/gateways/", body(route={"host": HOST}, oidc={"issuer": "http://id.example"}), format="json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["error"]["fields"] == {"oidc.issuer": ["The OIDC issuer must be an https:// URL."]}


@pytest.mark.django_db
def test_planning_a_spec_with_a_taken_host_is_not_refused(alice_api, bob_api, cluster) -> None:
    """A plan saves nothing, so the host clash (a 409 when the row is written) does not stop it."""
    assert alice_api.post("/api/v1/gateways/", body(route={"host": HOST}), format="json").status_code == 201
    response = bob_api.post("/api/v1/gateways/plan/", body(route={"host": HOST}), format="json")
    assert response.status_code in (200, 202), response.content


@pytest.mark.django_db
def test_taking_another_gateways_default_host_is_409(alice_api, bob_api, cluster) -> None:
    first = alice_api.post("/api/v1/gateways/", body(), format="json").json()
    default = f"{first['namespace']}.apps.east.example.com"
    clash = bob_api.post("/api/v1/gateways/", body(route={"host": default}), format="json")
    assert clash.status_code == 409
    assert hosts() == {"alice": default}


@pytest.mark.django_db
def test_same_host_on_another_cluster_is_allowed(alice_api, bob_api, cluster) -> None:
    ManagedCluster.objects.create(name="west", kubeconfig=KUBECONFIG, base_domain="apps.east.example.com")
    assert alice_api.post("/api/v1/gateways/", body(route={"host": HOST}), format="json").status_code == 201
    other = bob_api.post("/api/v1/gateways/", body(cluster="west", route={"host": HOST}), format="json")
    assert other.status_code == 201


@pytest.mark.django_db
@pytest.mark.parametrize("host", ["www.bank.example", "apps.east.example.com", "evilapps.east.example.com"])
def test_host_outside_the_cluster_domains_is_400(alice_api, cluster, host: str) -> None:
    response = alice_api.post("/api/v1/gateways/", body(route={"host": host}), format="json")
    assert response.status_code == 400
    assert response.json()["error"]["fields"]["route.host"][0].startswith(f"Route host {host!r} is outside")
    assert not Gateway.objects.exists()


@pytest.mark.django_db
def test_admin_allowed_domains_admit_hosts(admin_api, alice_api, cluster) -> None:
    refused = alice_api.post("/api/v1/gateways/", body(route={"host": "gw.tenant.example.org"}), format="json")
    assert refused.status_code == 400
    url = f"/api/v1/clusters/{cluster.pk}/"
    assert alice_api.patch(url, {"allowed_route_domains": ["example.org"]}, format="json").status_code == 403
    allowed = admin_api.patch(url, {"allowed_route_domains": ["tenant.example.org"]}, format="json")
    assert allowed.status_code == 200 and allowed.json()["allowed_route_domains"] == ["tenant.example.org"]
    accepted = alice_api.post("/api/v1/gateways/", body(route={"host": "gw.tenant.example.org"}), format="json")
    assert accepted.status_code == 201, accepted.content


@pytest.mark.django_db
@pytest.mark.parametrize("domains", [["-bad-.example"], ["a.example", "a.example"], "a.example", [5], ["A.example"]])
def test_invalid_allowed_domains_are_400(admin_api, cluster, domains: object) -> None:
    response = admin_api.patch(f"/api/v1/clusters/{cluster.pk}/", {"allowed_route_domains": domains}, format="json")
    assert response.status_code == 400, response.content
    assert all(key.startswith("allowed_route_domains") for key in response.json()["error"]["fields"])
    assert ManagedCluster.objects.get(pk=cluster.pk).allowed_route_domains == []


@pytest.mark.django_db(transaction=True)
def test_racing_creates_of_one_host_give_one_201_and_409s(make_user, cluster) -> None:
    tokens = [Token.objects.create(user=make_user(f"racer{n}")).key for n in range(6)]
    results: list[int] = []
    barrier = threading.Barrier(len(tokens))

    def create(token: str) -> None:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        barrier.wait()
        results.append(client.post("/api/v1/gateways/", body(route={"host": HOST}), format="json").status_code)
        connections.close_all()

    threads = [threading.Thread(target=create, args=(token,)) for token in tokens]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [201] + [409] * 5
    assert Gateway.objects.filter(effective_route_host=HOST).count() == 1
