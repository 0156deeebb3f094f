"""End to end with the unmodified upstream OpenShell chart: the API, a real worker whose GATEWAY_CHART is the
upstream chart directory, PostgreSQL, Redis, the real helm binary and devcluster, on both flavours."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from kubernetes import client

from controlplane.models import ManagedCluster
from gateways.values import TRUSTED_CA_CONFIGMAP, chart_fullname, sandbox_service_account
from tests.e2e.conftest import kube_api
from tests.fixtures.charts import require_upstream_chart
from tests.fixtures.stack import Stack
from tests.helpers import release_of
from tests.waiting import wait_until

pytestmark = pytest.mark.e2e

IMAGE = "registry.example.test:5000/openshell/gateway:1.0.0@sha256:" + "a" * 64
SUPERVISOR = "registry.example.test:5000/openshell/supervisor@sha256:" + "b" * 64
UPGRADED = "registry.example.test:5000/openshell/gateway@sha256:" + "c" * 64
CLUSTER_CA = "-----BEGIN CERTIFICATE-----\nMIIBCLUSTER\n-----END CERTIFICATE-----\n"


@pytest.fixture
def upstream_worker(live_stack: Stack) -> Iterator[None]:
    """The stack's worker on the upstream chart for this test, back on the mirror afterwards."""
    live_stack.restart_worker({"GATEWAY_CHART": str(require_upstream_chart())})
    yield
    live_stack.restart_worker({})


def add_cluster(dc, name: str, *, flavour: str, gateway_api: bool) -> None:
    ManagedCluster.objects.create(
        name=name,
        flavour=flavour,
        kubeconfig=dc.kubeconfig.read_text(),
        base_domain=f"{name}.example.test",
        gateway_api=gateway_api,
        trusted_ca_pem=CLUSTER_CA,
    )


def gone(tenant, gw_id: str, api: client.ApiClient, namespace: str) -> None:
    assert tenant.delete(f"/api/v1/gateways/{gw_id}/").status_code == 202
    wait_until(lambda: tenant.get(f"/api/v1/gateways/{gw_id}/").status_code == 404, "the row to go", timeout=90)
    assert namespace not in [n.metadata.name for n in client.CoreV1Api(api).list_namespace().items]
    # The chart's cluster-scoped objects outlive a namespace; helm uninstall must have removed them.
    rbac = client.RbacAuthorizationV1Api(api)
    assert f"{chart_fullname('edge')}-node-reader" not in [r.metadata.name for r in rbac.list_cluster_role().items]
    bindings = rbac.list_cluster_role_binding().items
    assert not [b for b in bindings if any(s.namespace == namespace for s in b.subjects or [])]


def test_kubernetes_gateway_on_the_upstream_chart(tenant, wait_for_phase, gateway_cluster, upstream_worker) -> None:
    add_cluster(gateway_cluster, "k8s-up", flavour="kubernetes", gateway_api=True)
    created = tenant.post(
        "/api/v1/gateways/",
        json={
            "name": "edge",
            "cluster": "k8s-up",
            "image": IMAGE,
            "supervisor_image": SUPERVISOR,
            "oidc": {"issuer": "https://id.example.test/realms/t", "audience": "openshell"},
            "database": {"provider": "external", "uri": "postgresql://gw:secret@db.example.test/gw"},
        },
    )
    assert created.status_code == 201, created.text
    gw_id, namespace = created.json()["id"], created.json()["namespace"]
    running = wait_for_phase(gw_id, "Running")
    host = f"{namespace}.k8s-up.example.test"
    assert running["status"]["route_address"] == f"grpcs://{host}:443"
    trusted = {c["type"]: c for c in running["status"]["conditions"]}["TrustedCA"]
    assert (trusted["status"], trusted["reason"]) == ("True", "Mounted")

    api = kube_api(gateway_cluster)
    sts = client.AppsV1Api(api).read_namespaced_stateful_set(chart_fullname(release_of(namespace)), namespace)
    (container,) = sts.spec.template.spec.containers
    assert container.image == IMAGE
    env = {e.name: e for e in container.env}
    assert env["OPENSHELL_DB_URL"].value_from.secret_key_ref.name == f"{release_of(namespace)}-db-credentials"
    assert env["SSL_CERT_FILE"].value == "/etc/openshell-tls/oidc-ca/ca.crt"
    volumes = {v.name: v for v in sts.spec.template.spec.volumes}
    assert volumes["oidc-ca"].config_map.name == TRUSTED_CA_CONFIGMAP
    bundle = client.CoreV1Api(api).read_namespaced_config_map(TRUSTED_CA_CONFIGMAP, namespace)
    assert bundle.data == {"ca.crt": CLUSTER_CA}
    (route,) = client.CustomObjectsApi(api).list_namespaced_custom_object(
        "gateway.networking.k8s.io", "v1", namespace, "grpcroutes"
    )["items"]
    assert route["spec"]["hostnames"] == [host]

    assert tenant.patch(f"/api/v1/gateways/{gw_id}/", json={"image": UPGRADED}).status_code == 200
    upgraded = wait_for_phase(gw_id, "Running", observed_generation=2)
    assert upgraded["status"]["release"]["revision"] == 2
    sts = client.AppsV1Api(api).read_namespaced_stateful_set(chart_fullname(release_of(namespace)), namespace)
    assert sts.spec.template.spec.containers[0].image == UPGRADED
    gone(tenant, gw_id, api, namespace)


def test_openshift_gateway_on_the_upstream_chart(
    tenant, wait_for_phase, gateway_openshift_cluster, upstream_worker
) -> None:
    add_cluster(gateway_openshift_cluster, "ocp-up", flavour="openshift", gateway_api=False)
    created = tenant.post(
        "/api/v1/gateways/",
        json={
            "name": "edge",
            "cluster": "ocp-up",
            "image": IMAGE,
            "supervisor_image": SUPERVISOR,
            "route": {"host": "edge.ocp-up.example.test"},
        },
    )
    assert created.status_code == 201, created.text
    gw_id, namespace = created.json()["id"], created.json()["namespace"]
    running = wait_for_phase(gw_id, "Running")
    assert running["status"]["route_address"] == "grpcs://edge.ocp-up.example.test:443"
    trusted = {c["type"]: c for c in running["status"]["conditions"]}["TrustedCA"]
    assert (trusted["status"], trusted["reason"]) == ("False", "NotMountable")

    api = kube_api(gateway_openshift_cluster)
    custom = client.CustomObjectsApi(api)
    release = release_of(namespace)
    route = custom.get_namespaced_custom_object(
        "route.openshift.io", "v1", namespace, "routes", chart_fullname(release)
    )
    assert route["spec"]["host"] == "edge.ocp-up.example.test" and route["spec"]["tls"]["termination"] == "passthrough"
    certificate = custom.get_namespaced_custom_object(
        "cert-manager.io", "v1", namespace, "certificates", f"{chart_fullname(release)}-server-external"
    )
    assert certificate["spec"]["issuerRef"]["name"] == "e2e-issuer"
    rbac = client.RbacAuthorizationV1Api(api)
    binding = rbac.read_namespaced_role_binding(f"{release}-sandbox-privileged-scc", namespace)
    assert [(s.kind, s.name) for s in binding.subjects] == [("ServiceAccount", sandbox_service_account(release))]
    client.CoreV1Api(api).read_namespaced_service_account(sandbox_service_account(release), namespace)
    sts = client.AppsV1Api(api).read_namespaced_stateful_set(chart_fullname(release_of(namespace)), namespace)
    assert sts.spec.template.spec.containers[0].image == IMAGE
    gone(tenant, gw_id, api, namespace)
