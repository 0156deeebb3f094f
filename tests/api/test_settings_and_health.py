"""Fail-fast configuration, health endpoints, and the published OpenAPI schema."""

from __future__ import annotations

import os

import pytest

from tests.helpers import run_manage


@pytest.mark.parametrize(
    ("variable", "value", "expected"),
    [
        ("SECRET_KEY", "", "SECRET_KEY is not set"),
        ("FIELD_ENCRYPTION_KEY", "", "FIELD_ENCRYPTION_KEY is not set"),
        ("FIELD_ENCRYPTION_KEY", "too-short", "FIELD_ENCRYPTION_KEY is not a valid Fernet key"),
        ("DATABASE_URL", "mysql://root@localhost/x", "DATABASE_URL has unsupported scheme"),
        ("CELERY_BROKER_URL", "amqp://guest@localhost//", "CELERY_BROKER_URL has unsupported scheme"),
        ("DEBUG", "sometimes", "DEBUG must be a boolean"),
        ("HELM_TIMEOUT_SECONDS", "soon", "HELM_TIMEOUT_SECONDS must be an integer"),
        ("GATEWAY_DRIFT_DETECTION", "sometimes", "GATEWAY_DRIFT_DETECTION must be one of enabled, warn, disabled"),
    ],
)
def test_bad_configuration_fails_fast_naming_the_variable(variable: str, value: str, expected: str) -> None:
    result = run_manage("check", env={variable: value})
    assert result.returncode != 0
    assert expected in result.stderr and "Fix:" in result.stderr


def test_healthz(client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


@pytest.mark.django_db
def test_readyz_ok_with_real_database_and_broker(client) -> None:
    response = client.get("/readyz")
    assert response.status_code == 200, response.content
    assert response.json()["checks"] == {"database": "ok", "broker": "ok", "cache": "ok"}


@pytest.mark.django_db
def test_readyz_503_when_broker_is_down(client, settings) -> None:
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"]["broker"].startswith("broker unreachable")
    assert response.json()["checks"]["database"] == "ok"


def test_readyz_503_when_database_is_down() -> None:
    script = (
        "import django; django.setup(); from django.test import Client; "
        "r = Client().get('/readyz'); print(r.status_code, r.json()['checks']['database'])"
    )
    result = run_manage("shell", "-c", script, env={"DATABASE_URL": "postgres://postgres@127.0.0.1:1/none"})
    assert result.returncode == 0, result.stderr
    assert "503 database unreachable" in result.stdout


def test_schema_validates_without_warnings() -> None:
    result = run_manage("spectacular", "--validate", "--fail-on-warn", "--file", os.devnull)
    assert result.returncode == 0, result.stderr
    assert "Warning" not in result.stderr and "Error" not in result.stderr


@pytest.mark.django_db
def test_published_schema_has_paths_and_secret_shapes(alice_api) -> None:
    response = alice_api.get("/api/v1/schema/?format=json")
    assert response.status_code == 200
    schema = response.json()
    for path in ("/api/v1/clusters/", "/api/v1/clusters/{id}/probe/", "/api/v1/gateways/{id}/", "/api/v1/catalogs/"):
        assert path in schema["paths"], path
    components = schema["components"]["schemas"]
    assert "kubeconfig" in components["ClusterRequest"]["properties"]
    assert "kubeconfig" not in components["Cluster"]["properties"]
    assert "uri" not in components["Database"]["properties"] and "uri" in components["DatabaseRequest"]["properties"]
    assert components["Gateway"]["properties"]["status"]["readOnly"] is True
    delete = schema["paths"]["/api/v1/gateways/{id}/"]["delete"]
    assert delete["operationId"] == "gateways_destroy" and "202" in delete["responses"]
    assert delete["responses"]["404"]["content"]["application/json"]["schema"]["$ref"] == "#/components/schemas/Error"
    for path in ("/api/v1/clusters/", "/api/v1/gateways/", "/api/v1/catalogs/"):
        body = schema["paths"][path]["post"]["requestBody"]["content"]["application/json"]
        assert body["examples"], path
    for page in ("/api/v1/schema/swagger-ui/", "/api/v1/schema/redoc/"):
        assert alice_api.get(page).status_code == 200
