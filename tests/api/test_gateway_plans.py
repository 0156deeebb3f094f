"""Plan endpoints without a worker: validation, what is stored (and what is not), tenancy, and the schema."""

from __future__ import annotations

import json

import pytest
from django.db import connection

from gateways.choices import PlanStatus
from gateways.models import Gateway, GatewayPlan
from tests.api.test_gateways import body

pytestmark = pytest.mark.django_db

DB_URI = "postgresql://gw:plan-api-secret@db.example.com/gw"


@pytest.fixture
def created(alice_api, cluster) -> dict:
    response = alice_api.post("/api/v1/gateways/", body(), format="json")
    assert response.status_code == 201, response.content
    return response.json()


def test_plan_of_a_gateway_is_202_pending_with_its_location(alice_api, created) -> None:
    response = alice_api.post(f"/api/v1/gateways/{created['id']}/plan/")
    assert response.status_code == 202, response.content
    plan = response.json()
    assert plan["status"] == PlanStatus.PENDING and plan["result"] is None
    assert plan["gateway"] == created["id"] and plan["name"] == "edge" and plan["cluster"] == "east"
    assert response["Location"].endswith(f"/api/v1/gateways/plans/{plan['id']}/")
    fetched = alice_api.get(f"/api/v1/gateways/plans/{plan['id']}/")
    assert fetched.status_code == 200 and fetched.json() == plan


def test_would_be_gateway_plan_saves_no_gateway_and_stores_its_spec_encrypted(alice_api, cluster) -> None:
    would_be = body(name="fresh", database={"provider": "external", "uri": DB_URI})
    response = alice_api.post("/api/v1/gateways/plan/", would_be, format="json")
    assert response.status_code == 202, response.content
    assert response.json()["gateway"] is None and DB_URI not in response.content.decode()
    assert not Gateway.objects.exists()
    plan = GatewayPlan.objects.get(pk=response.json()["id"])
    spec = json.loads(plan.spec)
    assert spec["database_uri"] == DB_URI and spec["namespace"].startswith("gw-fresh-")
    with connection.cursor() as cursor:
        cursor.execute("SELECT spec FROM gateways_gatewayplan WHERE id = %s", [plan.pk])
        (stored,) = cursor.fetchone()
    assert DB_URI not in stored and "fresh" not in stored, "the spec is encrypted at rest"


def test_a_spec_named_like_an_own_gateway_plans_a_change_of_it(alice_api, created) -> None:
    response = alice_api.post(
        "/api/v1/gateways/plan/", body(image="registry.example.com:5000/openshell/gateway:2.0.0"), format="json"
    )
    assert response.status_code == 202, response.content
    plan = GatewayPlan.objects.get(pk=response.json()["id"])
    spec = json.loads(plan.spec)
    assert str(plan.gateway_id) == created["id"] and spec["namespace"] == created["namespace"]
    assert spec["image"] == "registry.example.com:5000/openshell/gateway:2.0.0"
    saved = Gateway.objects.get(pk=created["id"]).image
    assert saved == "registry.example.com:5000/openshell/gateway:1.2.3", "nothing saved"


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"image": "UPPER/case:tag"}, "image"),
        ({"database": {"provider": "external"}}, "database.uri"),
        ({"oidc": {"issuer": "http://plain.example.com"}}, "oidc.issuer"),
        ({"route": {"host": "Not A Host"}}, "route.host"),
        ({"unknown": 1}, "unknown"),
    ],
)
def test_bad_would_be_spec_is_400_in_the_error_shape_and_stores_nothing(alice_api, cluster, overrides, field) -> None:
    response = alice_api.post("/api/v1/gateways/plan/", body(**overrides), format="json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["status"] == 400 and field in error["fields"]
    assert not GatewayPlan.objects.exists() and not Gateway.objects.exists()


def test_changing_the_cluster_of_an_own_gateway_is_400(alice_api, admin_api, created) -> None:
    from tests.helpers import KUBECONFIG

    admin_api.post(
        "/api/v1/clusters/", {"name": "west", "kubeconfig": KUBECONFIG, "base_domain": "w.example.com"}, format="json"
    )
    response = alice_api.post("/api/v1/gateways/plan/", body(cluster="west"), format="json")
    assert response.status_code == 400 and "cluster" in response.json()["error"]["fields"]


@pytest.mark.parametrize("wait", ["-1", "31", "soon"])
def test_bad_wait_is_400_and_stores_nothing(alice_api, created, wait: str) -> None:
    response = alice_api.post(f"/api/v1/gateways/{created['id']}/plan/?wait={wait}")
    assert response.status_code == 400 and "wait" in response.json()["error"]["fields"]
    assert not GatewayPlan.objects.exists()


def test_another_tenants_gateway_and_plan_are_404(alice_api, bob_api, admin_api, created) -> None:
    assert bob_api.post(f"/api/v1/gateways/{created['id']}/plan/").status_code == 404
    plan = alice_api.post(f"/api/v1/gateways/{created['id']}/plan/").json()
    response = bob_api.get(f"/api/v1/gateways/plans/{plan['id']}/")
    assert response.status_code == 404 and response.json()["error"]["status"] == 404
    assert admin_api.get(f"/api/v1/gateways/plans/{plan['id']}/").status_code == 200
    assert GatewayPlan.objects.count() == 1


def test_plans_of_a_gateway_being_deleted_are_409(alice_api, created) -> None:
    assert alice_api.delete(f"/api/v1/gateways/{created['id']}/").status_code == 202
    assert alice_api.post(f"/api/v1/gateways/{created['id']}/plan/").status_code == 409
    assert alice_api.post("/api/v1/gateways/plan/", body(), format="json").status_code == 409


def test_anonymous_is_401(anon_api, created) -> None:
    assert anon_api.post(f"/api/v1/gateways/{created['id']}/plan/").status_code == 401
    assert anon_api.post("/api/v1/gateways/plan/", body(), format="json").status_code == 401


def test_schema_documents_the_plan_operations(alice_api) -> None:
    schema = alice_api.get("/api/v1/schema/?format=json").json()
    paths = schema["paths"]
    operations = {
        ("/api/v1/gateways/{id}/plan/", "post"): "gateways_plan",
        ("/api/v1/gateways/plan/", "post"): "gateways_plan_spec",
        ("/api/v1/gateways/plans/{id}/", "get"): "gateways_plans_retrieve",
    }
    for (path, method), operation_id in operations.items():
        assert paths[path][method]["operationId"] == operation_id
    spec_plan = paths["/api/v1/gateways/plan/"]["post"]
    assert {"200", "202", "400"} <= set(spec_plan["responses"])
    assert spec_plan["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith("/GatewayRequest")
    assert [p["name"] for p in spec_plan["parameters"]] == ["wait"]
    result = schema["components"]["schemas"]["PlanResult"]["properties"]
    assert {"action", "values_diff", "objects", "prerequisites", "render_error"} <= set(result)


@pytest.mark.django_db(transaction=True)
def test_planning_a_saved_gateway_takes_no_row_lock_outside_a_transaction(admin_api, cluster) -> None:
    """Autocommit, as in production: a plan only reads its gateway (a locking read would need a transaction)."""
    created = admin_api.post(
        "/api/v1/gateways/",
        {
            "name": "unlocked",
            "cluster": cluster.name,
            "image": "r.test/gw:1",
            "supervisor_image": "r.test/s:1",
        },
        format="json",
    )
    assert created.status_code == 201, created.content
    response = admin_api.post(f"/api/v1/gateways/{created.json()['id']}/plan/")
    assert response.status_code == 202, response.content
    assert response.json()["status"] == "pending"


def test_a_would_be_name_with_nul_is_a_400_not_a_500(admin_api, cluster) -> None:
    response = admin_api.post(
        "/api/v1/gateways/plan/",
        {
            "name": "\u0000x",
            "cluster": cluster.name,
            "image": "r.test/gw:1",
            "supervisor_image": "r.test/s:1",
        },
        format="json",
    )
    assert response.status_code == 400, response.content
    assert GatewayPlan.objects.count() == 0
