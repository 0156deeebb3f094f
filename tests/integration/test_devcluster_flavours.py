"""Flavour presets decide which custom APIs are served: Gateway API vs OpenShift routes."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fixtures.devcluster import DevCluster, DevClusterError
from tests.waiting import wait_until

pytestmark = pytest.mark.integration


def _served_group_versions(cluster: DevCluster) -> set[str]:
    groups = cluster.call("GET", "/apis")["groups"]
    return {version["groupVersion"] for group in groups for version in group["versions"]}


def _kinds(cluster: DevCluster, group_version: str) -> set[str]:
    try:
        return {r["kind"] for r in cluster.call("GET", f"/apis/{group_version}")["resources"]}
    except DevClusterError:
        return set()


def _wait_for_status(cluster: DevCluster, path: str, timeout: float = 10.0) -> dict[str, Any]:
    return wait_until(
        lambda: (obj := cluster.call("GET", path)).get("status") and obj, f"{path} to get a status", timeout, 0.05
    )


def test_kubernetes_flavour_serves_gateway_api_and_cert_manager(devcluster: DevCluster) -> None:
    served = _served_group_versions(devcluster)
    assert {"gateway.networking.k8s.io/v1", "cert-manager.io/v1"} <= served
    assert "route.openshift.io/v1" not in served
    assert {"GRPCRoute", "HTTPRoute", "Gateway"} <= _kinds(devcluster, "gateway.networking.k8s.io/v1")
    assert _kinds(devcluster, "route.openshift.io/v1") == set()
    openapi_paths = devcluster.call("GET", "/openapi/v3")["paths"]
    assert "apis/gateway.networking.k8s.io/v1" in openapi_paths
    assert "apis/route.openshift.io/v1" not in openapi_paths


def test_openshift_flavour_serves_routes_not_gateway_api(openshift_devcluster: DevCluster) -> None:
    served = _served_group_versions(openshift_devcluster)
    assert {"route.openshift.io/v1", "security.openshift.io/v1", "cert-manager.io/v1"} <= served
    assert "gateway.networking.k8s.io/v1" not in served
    assert _kinds(openshift_devcluster, "gateway.networking.k8s.io/v1") == set()


def test_grpcroute_is_accepted_on_kubernetes(devcluster: DevCluster, devcluster_namespace: str) -> None:
    path = f"/apis/gateway.networking.k8s.io/v1/namespaces/{devcluster_namespace}/grpcroutes"
    route = {
        "apiVersion": "gateway.networking.k8s.io/v1",
        "kind": "GRPCRoute",
        "metadata": {"name": "grpc"},
        "spec": {"parentRefs": [{"name": "gateway"}]},
    }
    devcluster.call("POST", path, route)
    status = _wait_for_status(devcluster, f"{path}/grpc")["status"]
    assert status["parents"][0]["conditions"][0]["type"] == "Accepted"
    assert status["parents"][0]["conditions"][0]["status"] == "True"


def test_route_is_admitted_on_openshift(openshift_devcluster: DevCluster) -> None:
    namespace = openshift_devcluster.create_namespace("routes")
    path = f"/apis/route.openshift.io/v1/namespaces/{namespace}/routes"
    route = {
        "apiVersion": "route.openshift.io/v1",
        "kind": "Route",
        "metadata": {"name": "web"},
        "spec": {"host": "web.example.com", "to": {"kind": "Service", "name": "web"}},
    }
    openshift_devcluster.call("POST", path, route)
    ingress = _wait_for_status(openshift_devcluster, f"{path}/web")["status"]["ingress"][0]
    assert ingress["host"] == "web.example.com"
    assert {"type": "Admitted", "status": "True"}.items() <= ingress["conditions"][0].items()
    with pytest.raises(DevClusterError, match="404"):
        openshift_devcluster.call("GET", f"/apis/gateway.networking.k8s.io/v1/namespaces/{namespace}/grpcroutes")
