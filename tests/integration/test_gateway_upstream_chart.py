"""The unmodified upstream OpenShell chart, installed through the control plane's reconciler.

Real parts: the worker's pass (`run_pass`: lease, request from PostgreSQL rows, reconcile, publish), the real
helm binary with GATEWAY_CHART pointing at the upstream chart, and devcluster over HTTP on both flavours.
Assertions are on objects in the cluster and on the gateway's published status.

Facts from the chart that these tests pin down: the CA bundle is mounted only as `server.oidc.caConfigMapName`
(volume `oidc-ca` at /etc/openshell-tls/oidc-ca, `SSL_CERT_FILE` pointing at it) and only with an issuer;
`helm uninstall` keeps the credential-storage key-encryption-key Secret (`helm.sh/resource-policy: keep`) and
the certgen hook's ServiceAccount, Role and RoleBinding (hooks are not part of the release); the namespace's
deletion takes them; the cluster-scoped ClusterRole and ClusterRoleBinding go with the release.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from controlplane.models import ManagedCluster
from gateways.models import Gateway
from gateways.values import TRUSTED_CA_CONFIGMAP, chart_fullname, db_secret_name, sandbox_service_account
from tests.fixtures.charts import require_upstream_chart
from tests.fixtures.devcluster import DevCluster, DevClusterError, start_devcluster
from tests.helpers import KUBECONFIG, converge_by_passes
from workers import singletons
from workers.drivers.helm import HelmTarget
from workers.reconcile.gateway.passes.run import run_pass
from workers.startup import check_configuration

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

GATEWAY_IMAGE = "registry.example.test:5000/openshell/gateway:1.2.3@sha256:" + "ab" * 32
SUPERVISOR_IMAGE = "registry.example.test:5000/openshell/supervisor@sha256:" + "cd" * 32
UPGRADED_IMAGE = "registry.example.test:5000/openshell/gateway@sha256:" + "ef" * 32
CLUSTER_CA = "-----BEGIN CERTIFICATE-----\nCLUSTER\n-----END CERTIFICATE-----\n"
TENANT_CA = "-----BEGIN CERTIFICATE-----\nTENANT\n-----END CERTIFICATE-----\n"
SSL_CERT_FILE = "/etc/openshell-tls/oidc-ca/ca.crt"


@pytest.fixture(scope="module")
def flavour_clusters(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, DevCluster]]:
    require_upstream_chart()
    with (
        start_devcluster(tmp_path_factory.mktemp("up-k8s"), extra_presets=("agent-sandbox",)) as k8s,
        start_devcluster(
            tmp_path_factory.mktemp("up-ocp"), flavour="openshift", extra_presets=("agent-sandbox",)
        ) as ocp,
    ):
        ocp.create_cluster_issuer("corp-ca")  # upstream_worker's GATEWAY_CERT_ISSUER_NAME
        yield {"kubernetes": k8s, "openshift": ocp}


@pytest.fixture
def upstream_worker(settings: Any, tmp_path: Path) -> Iterator[None]:
    """This process as a worker whose GATEWAY_CHART is the upstream chart directory."""
    settings.GATEWAY_CHART = str(require_upstream_chart())
    settings.GATEWAY_CHART_VERSION = ""
    settings.HELM_HOME = str(tmp_path / "helm")
    settings.HELM_TIMEOUT_SECONDS = 60
    settings.GATEWAY_CERT_ISSUER_NAME = "corp-ca"
    settings.GATEWAY_POLL_SECONDS = 1
    singletons.chart.cache_clear()
    singletons.helm.cache_clear()
    yield
    singletons.chart.cache_clear()
    singletons.helm.cache_clear()


def get(cluster: DevCluster, path: str) -> Any:
    try:
        return cluster.call("GET", path)
    except DevClusterError as exc:
        if "404" in str(exc):
            return None
        raise


def make_gateway(owner: Any, cluster: ManagedCluster, **fields: Any) -> Gateway:
    gateway = Gateway(
        owner=owner, cluster=cluster, name="edge", image=GATEWAY_IMAGE, supervisor_image=SUPERVISOR_IMAGE, **fields
    )
    gateway.full_clean(exclude=["namespace"])
    gateway.assign_namespace()
    gateway.save()
    return gateway


def converge(gateway: Gateway, phase: str) -> Gateway:
    """Run passes (as the worker would) until the gateway reaches `phase` at its current generation."""
    return converge_by_passes(gateway, lambda current: current.phase == phase)


def delete_through_the_control_plane(gateway: Gateway, dc: DevCluster) -> None:
    Gateway.objects.filter(pk=gateway.pk).update(deletion_requested_at=timezone.now())
    for _ in range(40):
        run_pass(str(gateway.pk))
        if not Gateway.objects.filter(pk=gateway.pk).exists():
            break
    assert not Gateway.objects.filter(pk=gateway.pk).exists(), "the row never went"
    assert get(dc, f"/api/v1/namespaces/{gateway.namespace}") is None, "the namespace is still there"
    fullname = chart_fullname(gateway.helm_release)
    for plural in ("clusterroles", "clusterrolebindings"):
        assert get(dc, f"/apis/rbac.authorization.k8s.io/v1/{plural}/{fullname}-node-reader") is None, plural


def gateway_container(statefulset: dict[str, Any]) -> dict[str, Any]:
    (container,) = statefulset["spec"]["template"]["spec"]["containers"]
    return container


def statefulset_of(dc: DevCluster, gateway: Gateway) -> dict[str, Any]:
    path = f"/apis/apps/v1/namespaces/{gateway.namespace}/statefulsets/{chart_fullname(gateway.helm_release)}"
    return dc.call("GET", path)


def test_kubernetes_install_upgrade_delete(flavour_clusters, upstream_worker, alice) -> None:
    dc = flavour_clusters["kubernetes"]
    cluster = ManagedCluster.objects.create(
        name="k8s",
        kubeconfig=dc.kubeconfig.read_text(),
        base_domain="k8s.example.test",
        gateway_api=True,
        trusted_ca_pem=CLUSTER_CA,
    )
    gateway = make_gateway(
        alice,
        cluster,
        oidc_issuer="https://id.example.test/realms/t",
        oidc_audience="openshell",
        oidc_ca_configmap="idp-ca",
        database_provider="external",
        database_uri="postgresql://gw:secret@db.example.test:5432/gw",
    )
    # The tenant's own OIDC CA, in the gateway's namespace, before the first pass.
    dc.call(
        "POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": gateway.namespace}}
    )
    dc.call(
        "POST",
        f"/api/v1/namespaces/{gateway.namespace}/configmaps",
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "idp-ca"}, "data": {"ca.crt": TENANT_CA}},
    )

    running = converge(gateway, "Running")
    host = f"{gateway.namespace}.k8s.example.test"
    assert running.route_address == f"grpcs://{host}:443"
    assert (running.release_revision, running.release_status, running.chart_version) == (1, "deployed", "0.0.0")
    conditions = {c["type"]: c for c in running.conditions}
    assert (conditions["TrustedCA"]["status"], conditions["TrustedCA"]["reason"]) == ("True", "Mounted")

    bundle = dc.call("GET", f"/api/v1/namespaces/{gateway.namespace}/configmaps/{TRUSTED_CA_CONFIGMAP}")
    assert bundle["data"] == {"ca.crt": CLUSTER_CA + TENANT_CA}

    statefulset = statefulset_of(dc, gateway)
    container = gateway_container(statefulset)
    assert container["image"] == GATEWAY_IMAGE  # the digest kept, never :latest
    env = {e["name"]: e for e in container["env"]}
    release = gateway.helm_release
    assert env["OPENSHELL_DB_URL"]["valueFrom"]["secretKeyRef"] == {"name": db_secret_name(release), "key": "uri"}
    assert "--db-url" not in container["args"]
    assert env["SSL_CERT_FILE"]["value"] == SSL_CERT_FILE
    mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
    assert mounts["oidc-ca"] == "/etc/openshell-tls/oidc-ca"
    volumes = {v["name"]: v for v in statefulset["spec"]["template"]["spec"]["volumes"]}
    assert volumes["oidc-ca"]["configMap"]["name"] == TRUSTED_CA_CONFIGMAP
    config = dc.call("GET", f"/api/v1/namespaces/{gateway.namespace}/configmaps/{chart_fullname(release)}-config")
    assert SUPERVISOR_IMAGE in config["data"]["gateway.toml"]
    secret = dc.call("GET", f"/api/v1/namespaces/{gateway.namespace}/secrets/{db_secret_name(release)}")
    assert base64.b64decode(secret["data"]["uri"]).decode() == "postgresql://gw:secret@db.example.test:5432/gw"

    (route,) = dc.call("GET", f"/apis/gateway.networking.k8s.io/v1/namespaces/{gateway.namespace}/grpcroutes")["items"]
    assert route["spec"]["hostnames"] == [host]
    assert route["spec"]["parentRefs"] == [{"name": "shared-gateway", "namespace": "gateway-system"}]

    # Upgrade: a spec change is a new revision and a changed object in the cluster.
    running.image = UPGRADED_IMAGE
    running.save()
    upgraded = converge(running, "Running")
    assert (upgraded.release_revision, upgraded.observed_generation) == (2, 2)
    assert gateway_container(statefulset_of(dc, gateway))["image"] == UPGRADED_IMAGE

    delete_through_the_control_plane(gateway, dc)


def test_openshift_route_cert_manager_scc_and_an_unmountable_trusted_ca(
    flavour_clusters, upstream_worker, alice
) -> None:
    dc = flavour_clusters["openshift"]
    cluster = ManagedCluster.objects.create(
        name="ocp",
        flavour="openshift",
        kubeconfig=dc.kubeconfig.read_text(),
        base_domain="ocp.example.test",
        gateway_api=False,
        trusted_ca_pem=CLUSTER_CA,
    )
    gateway = make_gateway(alice, cluster, route_host="edge.ocp.example.test")
    running = converge(gateway, "Running")
    assert running.route_address == "grpcs://edge.ocp.example.test:443"
    trusted = {c["type"]: c for c in running.conditions}["TrustedCA"]
    assert (trusted["status"], trusted["reason"]) == ("False", "NotMountable")
    assert "only for an OIDC issuer" in trusted["message"]
    ns, fullname, release = gateway.namespace, chart_fullname(gateway.helm_release), gateway.helm_release

    # The bundle exists (a prerequisite) but nothing mounts it: the chart has no other CA key.
    bundle = dc.call("GET", f"/api/v1/namespaces/{ns}/configmaps/{TRUSTED_CA_CONFIGMAP}")
    assert bundle["data"] == {"ca.crt": CLUSTER_CA}
    container = gateway_container(statefulset_of(dc, gateway))
    assert "SSL_CERT_FILE" not in {e["name"] for e in container["env"]}
    assert container["image"] == GATEWAY_IMAGE

    route = dc.call("GET", f"/apis/route.openshift.io/v1/namespaces/{ns}/routes/{fullname}")
    assert route["spec"]["host"] == "edge.ocp.example.test"
    assert route["spec"]["tls"]["termination"] == "passthrough"
    external = dc.call("GET", f"/apis/cert-manager.io/v1/namespaces/{ns}/certificates/{fullname}-server-external")
    assert external["spec"]["dnsNames"] == ["edge.ocp.example.test"]
    assert external["spec"]["issuerRef"] | {"name": "corp-ca", "kind": "ClusterIssuer"} == external["spec"]["issuerRef"]

    rbac = f"/apis/rbac.authorization.k8s.io/v1/namespaces/{ns}"
    binding = dc.call("GET", f"{rbac}/rolebindings/{release}-sandbox-privileged-scc")
    assert binding["roleRef"]["name"] == "system:openshift:scc:privileged"
    sandbox = sandbox_service_account(release)
    assert binding["subjects"] == [{"kind": "ServiceAccount", "name": sandbox, "namespace": ns}]
    assert get(dc, f"/api/v1/namespaces/{ns}/serviceaccounts/{sandbox_service_account(release)}"), "the chart's SA"

    # What `helm uninstall` leaves on purpose: the kept KEK Secret and the certgen hook's objects.
    singletons.helm().uninstall(HelmTarget(kubeconfig=cluster.kubeconfig, namespace=ns), release)
    kept = {
        (kind, item["metadata"]["name"])
        for kind, path in (
            ("Secret", "/api/v1/namespaces/{ns}/secrets"),
            ("ServiceAccount", "/api/v1/namespaces/{ns}/serviceaccounts"),
            ("Role", "/apis/rbac.authorization.k8s.io/v1/namespaces/{ns}/roles"),
            ("RoleBinding", "/apis/rbac.authorization.k8s.io/v1/namespaces/{ns}/rolebindings"),
        )
        for item in dc.call("GET", path.format(ns=ns))["items"]
        if item["metadata"].get("labels", {}).get("app.kubernetes.io/instance") == release
    }
    assert kept == {
        ("Secret", f"{fullname}-credential-storage-key-encryption-key"),
        ("ServiceAccount", f"{fullname}-certgen"),
        ("Role", f"{fullname}-certgen"),
        ("RoleBinding", f"{fullname}-certgen"),
    }
    delete_through_the_control_plane(gateway, dc)


def test_the_worker_start_up_check_accepts_the_upstream_chart(upstream_worker) -> None:
    """Measured before: `GATEWAY_CHART: the chart has no values key 'server.trustedCaConfigMapName'`."""
    ManagedCluster.objects.create(
        name="ocp-check", flavour="openshift", gateway_api=False, kubeconfig=KUBECONFIG, base_domain="o.test"
    )
    assert check_configuration() == []
