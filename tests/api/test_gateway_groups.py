"""A gateway's `route` and `oidc` groups: `{"enabled": false}` turns one off; a null group is what generated clients
send for a field left out, so on create it is an absent one (the default route, no OIDC), and on update it still
means off, as it did before `enabled` existed."""

from __future__ import annotations

from typing import Any

import pytest

from gateways.models import Gateway

pytestmark = pytest.mark.django_db

IMAGES = {
    "image": "registry.example.com:5000/openshell/gateway:1.2.3",
    "supervisor_image": "registry.example.com:5000/openshell/supervisor:1.2.3",
}
OIDC = {"issuer": "https://id.example.com", "audience": "openshell"}
OIDC_OFF = {
    "enabled": False,
    "issuer": "",
    "audience": "",
    "roles_claim": "",
    "admin_role": "",
    "user_role": "",
    "ca_configmap": "",
}


def create(api: Any, **body: Any) -> dict:
    response = api.post("/api/v1/gateways/", {"cluster": "east", **IMAGES, **body}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def patch(api: Any, gateway: dict, body: dict, status: int = 200) -> dict:
    response = api.patch(f"/api/v1/gateways/{gateway['id']}/", body, format="json")
    assert response.status_code == status, response.content
    return response.json()


def route_host(gateway: dict) -> str | None:
    return Gateway.objects.get(pk=gateway["id"]).effective_route_host


# The second is what openapi-generator's Python client sent for `GatewayRequest.from_dict({"name", "cluster"})`
# while the schema allowed null for the groups (tests/contract drive the generated clients themselves).
@pytest.mark.parametrize("nulls", [{"route": None}, {"route": None, "oidc": None}])
def test_a_null_group_on_create_is_an_absent_one(alice_api, cluster, nulls: dict) -> None:
    absent = create(alice_api, name="curl")
    sent = create(alice_api, name="generated", **nulls)
    assert sent["route"] == absent["route"] == {"enabled": True, "host": ""}
    assert sent["oidc"] == absent["oidc"] == OIDC_OFF
    assert route_host(sent) == f"{sent['namespace']}.apps.east.example.com"


def test_enabled_false_turns_the_route_off_and_an_object_turns_it_on(alice_api, cluster) -> None:
    off = create(alice_api, name="edge", route={"enabled": False})
    assert off["route"] == {"enabled": False, "host": ""} and route_host(off) is None
    on = patch(alice_api, off, {"route": {}})
    assert on["route"] == {"enabled": True, "host": ""} and on["generation"] == 2
    hosted = patch(alice_api, on, {"route": {"host": "edge.apps.east.example.com"}})
    assert hosted["route"] == {"enabled": True, "host": "edge.apps.east.example.com"}
    assert patch(alice_api, hosted, {"route": {"enabled": False}})["route"] == {"enabled": False, "host": ""}
    assert route_host(hosted) is None


def test_enabled_is_read_as_a_boolean(alice_api, cluster) -> None:
    assert create(alice_api, name="edge", route={"enabled": "false"})["route"] == {"enabled": False, "host": ""}


def test_a_null_route_on_update_still_means_off(alice_api, cluster) -> None:
    gateway = create(alice_api, name="edge")
    assert patch(alice_api, gateway, {"route": None})["route"] == {"enabled": False, "host": ""}
    assert route_host(gateway) is None


def test_oidc_is_turned_off_by_enabled_false_or_a_null_on_update(alice_api, cluster) -> None:
    gateway = create(alice_api, name="edge", oidc=OIDC)
    assert gateway["oidc"]["enabled"] is True and gateway["oidc"]["issuer"] == OIDC["issuer"]
    assert patch(alice_api, gateway, {"oidc": {"enabled": False}})["oidc"] == OIDC_OFF
    patch(alice_api, gateway, {"oidc": OIDC})
    assert patch(alice_api, gateway, {"oidc": None})["oidc"] == OIDC_OFF
    assert Gateway.objects.get(pk=gateway["id"]).oidc_audience == ""


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"route": {"enabled": False, "host": "edge.apps.east.example.com"}}, "route"),
        ({"oidc": {"enabled": False, "issuer": "https://id.example.com"}}, "oidc"),
        ({"oidc": {}}, "oidc.issuer"),
        ({"oidc": {"enabled": True, "audience": "a"}}, "oidc.issuer"),
        ({"route": {"enabled": "sometimes"}}, "route.enabled"),
    ],
)
def test_contradictory_groups_are_a_400_naming_the_field(alice_api, cluster, body: dict, field: str) -> None:
    response = alice_api.post("/api/v1/gateways/", {"name": "edge", "cluster": "east", **IMAGES, **body}, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()["error"]["fields"], response.content
    assert not Gateway.objects.exists()


def test_the_schema_offers_enabled_and_no_null_for_the_groups(alice_api) -> None:
    schemas = alice_api.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    schemas = schemas["components"]["schemas"]
    for name in ("GatewayRequest", "PatchedGatewayRequest"):
        for group in ("route", "oidc"):
            prop = schemas[name]["properties"][group]
            assert not prop.get("nullable") and "oneOf" not in prop, (name, group, prop)
    assert "enabled" in schemas["RouteRequest"]["properties"] and "enabled" in schemas["OidcRequest"]["properties"]
    assert "issuer" not in schemas["OidcRequest"].get("required", [])
