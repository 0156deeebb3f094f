"""Fault injection through the admin API, observed by the kubernetes python client."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from kubernetes import client, config
from kubernetes.client.rest import ApiException

from tests.fixtures.devcluster import DevCluster

pytestmark = pytest.mark.integration


@pytest.fixture
def core(devcluster: DevCluster) -> Iterator[client.CoreV1Api]:
    api_client = config.new_client_from_config(config_file=str(devcluster.kubeconfig))
    yield client.CoreV1Api(api_client)
    api_client.close()


def test_injected_500_raises_and_clearing_restores(
    devcluster: DevCluster, devcluster_namespace: str, core: client.CoreV1Api
) -> None:
    rule_id = devcluster.add_fault(path_regex=f"^/api/v1/namespaces/{devcluster_namespace}/configmaps", method="GET")
    assert [rule["id"] for rule in devcluster.faults()] == [rule_id]
    with pytest.raises(ApiException) as failure:
        core.list_namespaced_config_map(devcluster_namespace)
    assert failure.value.status == 500
    assert '"kind":"Status"' in failure.value.body and '"reason":"InternalError"' in failure.value.body
    core.list_namespaced_secret(devcluster_namespace)  # other paths are unaffected

    devcluster.clear_faults()
    assert devcluster.faults() == []
    assert core.list_namespaced_config_map(devcluster_namespace).items == []


def test_fault_count_limits_how_often_it_fires(
    devcluster: DevCluster, devcluster_namespace: str, core: client.CoreV1Api
) -> None:
    devcluster.add_fault(path_regex=f"/namespaces/{devcluster_namespace}/secrets$", status=503, count=1)
    with pytest.raises(ApiException) as failure:
        core.list_namespaced_secret(devcluster_namespace)
    assert failure.value.status == 503
    core.list_namespaced_secret(devcluster_namespace)


def test_latency_is_applied(devcluster: DevCluster, devcluster_namespace: str, core: client.CoreV1Api) -> None:
    """The request log tells how long the server held each request for an injected latency."""
    devcluster.clear_requests()
    devcluster.add_fault(path_regex=f"/namespaces/{devcluster_namespace}/services$", status=None, latency_ms=300)
    core.list_namespaced_service(devcluster_namespace)
    core.list_namespaced_pod(devcluster_namespace)
    held = {r["path"].rsplit("/", 1)[-1]: (r["status"], r["delayed_ms"]) for r in devcluster.requests()}
    assert held == {"services": (200, 300), "pods": (200, 0)}
    assert [rule["hits"] for rule in devcluster.faults()] == [1]


def test_requests_are_logged(devcluster: DevCluster, devcluster_namespace: str, core: client.CoreV1Api) -> None:
    devcluster.clear_requests()
    core.list_namespaced_pod(devcluster_namespace)
    logged = [r for r in devcluster.requests() if r["path"] == f"/api/v1/namespaces/{devcluster_namespace}/pods"]
    assert [(r["method"], r["status"]) for r in logged] == [("GET", 200)]
