"""KubeClient's pure parts (error mapping, paths) and the private credential files."""

from __future__ import annotations

import json
import os
import stat

import pytest
from kubernetes.client.exceptions import ApiException

from tests.helpers import KUBECONFIG, kubeconfig_at
from tests.listeners import Answer, listening
from workers.drivers import errors
from workers.drivers.kube import KubeClient, api_error, api_path
from workers.drivers.kubeconfig import kubeconfig_file, kubeconfig_secrets, private_file


def _api_exception(status: int, message: str | None = None) -> ApiException:
    exc = ApiException(status=status, reason="Reason")
    exc.body = json.dumps({"kind": "Status", "message": message}) if message else None
    return exc


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        (0, errors.ClusterUnreachable),
        (400, errors.InvalidRequest),
        (401, errors.Unauthorized),
        (403, errors.Unauthorized),
        (404, errors.NotFound),
        (409, errors.Conflict),
        (422, errors.InvalidRequest),
        (429, errors.ServerError),
        (500, errors.ServerError),
        (503, errors.ServerError),
    ],
)
def test_api_error_maps_status(status: int, expected: type) -> None:
    error = api_error(_api_exception(status, "the message"), set())
    assert type(error) is expected
    assert "the message" in str(error)
    if status:
        assert error.status == status


def test_api_error_falls_back_to_reason_and_redacts() -> None:
    assert "Reason" in str(api_error(_api_exception(500), set()))
    error = api_error(_api_exception(422, 'data: Invalid value: "pa55word-xyz"'), {"pa55word-xyz"})
    assert "pa55word-xyz" not in str(error) and errors.REDACTED in str(error)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("v1", "namespaces"), "/api/v1/namespaces"),
        (("v1", "namespaces", None, "t1"), "/api/v1/namespaces/t1"),
        (("v1", "secrets", "t1", "s"), "/api/v1/namespaces/t1/secrets/s"),
        (("apps/v1", "deployments", "t1"), "/apis/apps/v1/namespaces/t1/deployments"),
        (("gateway.networking.k8s.io/v1", "httproutes"), "/apis/gateway.networking.k8s.io/v1/httproutes"),
        (("v1", "secrets", "t1", "a/../b"), "/api/v1/namespaces/t1/secrets/a%2F..%2Fb"),
    ],
)
def test_api_path(args: tuple, expected: str) -> None:
    assert api_path(*args) == expected


@pytest.mark.parametrize("content", ["a: [", "- 1\n", "apiVersion: v1\nkind: Config\n"])
def test_invalid_kubeconfig_is_invalid_request(content: str) -> None:
    with pytest.raises(errors.InvalidRequest, match="invalid kubeconfig"):
        KubeClient(content)


def test_dead_port_is_cluster_unreachable() -> None:
    with KubeClient(KUBECONFIG) as client, pytest.raises(errors.ClusterUnreachable) as raised:
        client.namespace_exists("t1")
    assert "super-secret-token-value" not in str(raised.value)


@pytest.mark.parametrize("answer", list(Answer))
def test_a_failed_request_is_tried_once_and_given_up_on(answer: Answer) -> None:
    """No retries: one connection per request, whether the server hangs up or never answers (then the read
    timeout gives up while the server still holds the connection)."""
    with (
        listening(answer) as server,
        KubeClient(kubeconfig_at(KUBECONFIG, server.url), timeout=0.2) as client,
        pytest.raises(errors.ClusterUnreachable) as raised,
    ):
        client.namespace_exists("t1")
    assert server.count == 1
    assert "super-secret-token-value" not in str(raised.value)


def test_delete_rejects_unknown_kind() -> None:
    with KubeClient(KUBECONFIG) as client, pytest.raises(ValueError, match="unsupported kind"):
        client.delete("Gadget", "t1", "x")


def test_kubeconfig_file_is_private_and_removed() -> None:
    with kubeconfig_file(KUBECONFIG) as path:
        assert path.read_text() == KUBECONFIG
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert not path.exists() and not path.parent.exists()


def test_private_file_removed_on_error() -> None:
    with pytest.raises(RuntimeError), private_file("x", "values.json") as path:
        raise RuntimeError
    assert not os.path.exists(path.parent)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (KUBECONFIG, {"super-secret-token-value"}),
        (
            "users:\n- name: admin\n  user: {client-key-data: S0VZS0VZ, username: bob, password: pw-123456}\n",
            {"S0VZS0VZ", "pw-123456"},
        ),
        ("not: [yaml", set()),
        ("- a list\n", set()),
    ],
)
def test_kubeconfig_secrets(content: str, expected: set[str]) -> None:
    assert kubeconfig_secrets(content) == expected
