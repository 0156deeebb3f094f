"""End to end: the API, a real worker on Redis, PostgreSQL, the real helm binary and devcluster."""

from __future__ import annotations

import pytest
from kubernetes import client

from tests.e2e.conftest import kube_api
from tests.helpers import release_of
from tests.waiting import wait_until

pytestmark = pytest.mark.e2e

DIGEST = "sha256:" + "c" * 64


def gateway_body(cluster: str, **overrides: object) -> dict:
    return {
        "name": "edge",
        "cluster": cluster,
        "image": "ghcr.io/nvidia/openshell/gateway:1.0.0",
        "supervisor_image": "ghcr.io/nvidia/openshell/supervisor:1.0.0",
        **overrides,
    }


def statefulset_images(api: client.ApiClient, namespace: str) -> list[str]:
    (sts,) = client.AppsV1Api(api).list_namespaced_stateful_set(namespace).items
    return [c.image for c in sts.spec.template.spec.containers]


def test_create_update_unroute_delete(tenant, wait_for_phase, gateway_cluster, register) -> None:
    register(gateway_cluster, "k8s")
    created = tenant.post("/api/v1/gateways/", json=gateway_body("k8s"))
    assert created.status_code == 201, created.text
    gw_id, namespace = created.json()["id"], created.json()["namespace"]

    running = wait_for_phase(gw_id, "Running")
    assert running["status"]["route_address"] == f"grpcs://{namespace}.k8s.example.test:443"
    assert running["status"]["release"]["revision"] == 1 and running["status"]["release"]["status"] == "deployed"
    assert running["status"]["observed_generation"] == 1
    api = kube_api(gateway_cluster)
    ns = client.CoreV1Api(api).read_namespace(namespace)
    assert ns.metadata.labels["controlplane/managed"] == "true"
    assert ns.metadata.labels["app.kubernetes.io/managed-by"] == "controlplane-control-plane"
    routes = client.CustomObjectsApi(api).list_namespaced_custom_object(
        "gateway.networking.k8s.io", "v1", namespace, "grpcroutes"
    )["items"]
    assert [r["spec"]["hostnames"] for r in routes] == [[f"{namespace}.k8s.example.test"]]

    # Both images from one registry and namespace (mixed provenance is refused), the gateway's pinned by digest.
    pinned = f"registry.example.test:5000/openshell/gateway@{DIGEST}"
    supervisor = "registry.example.test:5000/openshell/supervisor:1.0.0"
    mixed = tenant.patch(f"/api/v1/gateways/{gw_id}/", json={"image": pinned})
    assert mixed.status_code == 400 and "Mixed provenance" in mixed.json()["error"]["fields"]["supervisor_image"][0]
    changed = tenant.patch(f"/api/v1/gateways/{gw_id}/", json={"image": pinned, "supervisor_image": supervisor})
    assert changed.status_code == 200, changed.text
    upgraded = wait_for_phase(gw_id, "Running", observed_generation=2)
    assert upgraded["status"]["release"]["revision"] == 2
    assert statefulset_images(api, namespace)[0] == pinned
    assert upgraded["status"]["deployed_images"] == {"image": pinned, "supervisor_image": supervisor}

    assert tenant.patch(f"/api/v1/gateways/{gw_id}/", json={"route": {"enabled": False}}).status_code == 200
    unrouted = wait_for_phase(gw_id, "Running", observed_generation=3)
    assert unrouted["status"]["route_address"] == ""
    assert not client.CustomObjectsApi(api).list_namespaced_custom_object(
        "gateway.networking.k8s.io", "v1", namespace, "grpcroutes"
    )["items"]

    events = tenant.get(f"/api/v1/gateways/{gw_id}/events/").json()["results"]
    assert {"InstallSucceeded", "UpgradeSucceeded"} <= {e["reason"] for e in events}

    assert tenant.delete(f"/api/v1/gateways/{gw_id}/").status_code == 202
    wait_until(lambda: tenant.get(f"/api/v1/gateways/{gw_id}/").status_code == 404, "the row to go", timeout=60)
    names = [n.metadata.name for n in client.CoreV1Api(api).list_namespace().items]
    assert namespace not in names
    secrets = client.CoreV1Api(api).list_secret_for_all_namespaces(label_selector="owner=helm").items
    assert not [s for s in secrets if s.metadata.namespace == namespace]


def test_openshift_gets_scc_binding_and_route(tenant, wait_for_phase, gateway_openshift_cluster, register) -> None:
    register(gateway_openshift_cluster, "ocp", flavour="openshift", gateway_api=False)
    created = tenant.post("/api/v1/gateways/", json=gateway_body("ocp", route={"host": "edge.ocp.example.test"}))
    assert created.status_code == 201, created.text
    gw_id, namespace = created.json()["id"], created.json()["namespace"]
    running = wait_for_phase(gw_id, "Running")
    assert running["status"]["route_address"] == "grpcs://edge.ocp.example.test:443"
    api = kube_api(gateway_openshift_cluster)
    release = release_of(namespace)
    binding = client.RbacAuthorizationV1Api(api).read_namespaced_role_binding(
        f"{release}-sandbox-privileged-scc", namespace
    )
    assert binding.role_ref.name == "system:openshift:scc:privileged"
    assert [(s.kind, s.name) for s in binding.subjects] == [("ServiceAccount", f"{release}-openshell-sandbox")]
    (route,) = client.CustomObjectsApi(api).list_namespaced_custom_object(
        "route.openshift.io", "v1", namespace, "routes"
    )["items"]
    assert route["spec"]["host"] == "edge.ocp.example.test"
    assert tenant.delete(f"/api/v1/gateways/{gw_id}/").status_code == 202
    wait_until(lambda: tenant.get(f"/api/v1/gateways/{gw_id}/").status_code == 404, "the row to go", timeout=60)
