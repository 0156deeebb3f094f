"""No 500 from any input: deep JSON is a 400; health and metrics answer other methods with a JSON 405."""

from __future__ import annotations

import json

import pytest

from controlplane.api.parsers import MAX_JSON_DEPTH, json_depth
from gateways.models import Gateway

GATEWAY = {"name": "edge", "cluster": "east", "image": "r.example.com/gw:1", "supervisor_image": "r.example.com/sv:1"}


@pytest.mark.parametrize(("value", "depth"), [(1, 0), ([], 1), ({"a": [1, {"b": []}]}, 4), ([[[]], []], 3)])
def test_json_depth(value: object, depth: int) -> None:
    assert json_depth(value) == depth


@pytest.mark.django_db
@pytest.mark.parametrize("levels", [5000, MAX_JSON_DEPTH + 1])
def test_deeply_nested_json_is_400_and_nothing_is_stored(alice_api, cluster, levels: int) -> None:
    nested = "[" * levels + "]" * levels
    raw = json.dumps({**GATEWAY, "labels": "X"}).replace('"X"', nested)
    response = alice_api.post("/api/v1/gateways/", raw, content_type="application/json")
    assert response.status_code == 400, response.content[:200]
    assert response.json()["error"]["code"] == "too_deep"
    assert not Gateway.objects.exists()


@pytest.mark.django_db
def test_json_at_the_depth_limit_is_parsed(alice_api, cluster) -> None:
    labels = "[" * (MAX_JSON_DEPTH - 1) + "]" * (MAX_JSON_DEPTH - 1)
    raw = json.dumps({**GATEWAY, "labels": "X"}).replace('"X"', labels)
    response = alice_api.post("/api/v1/gateways/", raw, content_type="application/json")
    assert response.status_code == 400 and response.json()["error"]["fields"]["labels"]  # a validation error


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/healthz", "/readyz", "/metrics"])
@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_health_and_metrics_answer_other_methods_with_json_405(client, path: str, method: str) -> None:
    response = getattr(client, method)(path)
    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD"
    assert response.json()["error"] == {
        "status": 405,
        "code": "method_not_allowed",
        "message": f"Method {method.upper()} is not allowed.",
    }


@pytest.mark.django_db
def test_unknown_paths_outside_the_api_are_json_404(client) -> None:
    response = client.get("/nowhere")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
