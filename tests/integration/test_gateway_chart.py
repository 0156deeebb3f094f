"""The gateway test chart with values from gateways/values.py, rendered and installed by the real helm binary
against devcluster, on both cluster flavours.

The chart's Agent Sandbox preflight is on by default; the shared clusters here serve the agents.x-k8s.io API
(its CRD is POSTed when the cluster starts), and one test starts a cluster without it to see the preflight fail
and then pass once the CRD is created.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
import yaml

from controlplane.values_tree import deep_merge
from gateways.chart_keys import check_values_keys, defaults_from_yaml, unknown_keys
from gateways.values import (
    TRUSTED_CA_CONFIGMAP,
    ClusterFacts,
    GatewaySpec,
    RoutingConfig,
    db_secret_name,
    gateway_values,
    route_host,
    sandbox_service_account,
)
from tests.fixtures.devcluster import DevCluster, DevClusterError, start_devcluster
from tests.paths import HELM, PROJECT_ROOT
from tests.waiting import wait_until

pytestmark = pytest.mark.integration

CHART = PROJECT_ROOT / "tests" / "charts" / "gateway"
AGENTS_API = "agents.x-k8s.io/v1alpha1"
HEX = "0123456789abcdef" * 4
DIGITS = "9876543210" * 6 + "9876"
GATEWAY_IMAGE = f"registry.example.com:5000/openshell/gateway:1.2.3@sha256:{HEX}"
SUPERVISOR_IMAGE = f"registry.example.com:5000/openshell/supervisor@sha256:{DIGITS}"
ROUTING = RoutingConfig(
    gateway_name="public",
    gateway_namespace="gateway-system",
    issuer_name="corp-ca",
    issuer_kind="ClusterIssuer",
    route_annotations={"haproxy.router.openshift.io/timeout": "5m"},
)
CLUSTERS = {
    "kubernetes": ClusterFacts("kubernetes", "apps.east.example.com", gateway_api=True, has_trusted_ca=True),
    "openshift": ClusterFacts("openshift", "apps.ocp.example.com", gateway_api=False, has_trusted_ca=True),
}
SANDBOX_CRD = {
    "apiVersion": "apiextensions.k8s.io/v1",
    "kind": "CustomResourceDefinition",
    "metadata": {"name": "sandboxes.agents.x-k8s.io"},
    "spec": {
        "group": "agents.x-k8s.io",
        "scope": "Namespaced",
        "names": {"kind": "Sandbox", "listKind": "SandboxList", "plural": "sandboxes", "singular": "sandbox"},
        "versions": [
            {
                "name": "v1alpha1",
                "served": True,
                "storage": True,
                "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": True}},
            }
        ],
    },
}
STANDARD_LABELS = {
    "app.kubernetes.io/name": "openshell-gateway",
    "app.kubernetes.io/version": "0.1.0",
    "app.kubernetes.io/managed-by": "Helm",
}


# ---------------------------------------------------------------- helpers and fixtures


@dataclass
class HelmCli:
    """The real helm binary with the secret driver and its own HOME and HELM_*_HOME directories."""

    env: dict[str, str]
    workdir: Path

    def run(self, *args: str, check: bool = True, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        result = subprocess.run([str(HELM), *args], env=self.env, capture_output=True, text=True, timeout=timeout)
        if check:
            assert result.returncode == 0, f"helm {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}"
        return result

    def render(self, release: str, namespace: str, values: dict[str, Any]) -> list[dict[str, Any]]:
        """`helm template` of the chart as a cluster serving the Agent Sandbox API would render it."""
        args = ["template", release, str(CHART), "-n", namespace, "-f", self.values_file(values)]
        return documents(self.run(*args, "--api-versions", AGENTS_API).stdout)

    def values_file(self, values: dict[str, Any], name: str = "values.json") -> str:
        # JSON (a YAML subset) keeps every string a string: no tag or digest is ever read as a number.
        path = self.workdir / name
        path.write_text(json.dumps(values))
        return str(path)


def make_helm(root: Path, cluster: DevCluster | None) -> HelmCli:
    env = {
        **os.environ,
        "HOME": str(root / "home"),
        "HELM_DRIVER": "secret",
        "HELM_CACHE_HOME": str(root / "helm-cache"),
        "HELM_CONFIG_HOME": str(root / "helm-config"),
        "HELM_DATA_HOME": str(root / "helm-data"),
        "KUBECONFIG": str(cluster.kubeconfig) if cluster else str(root / "no-kubeconfig"),
    }
    (root / "home").mkdir(parents=True, exist_ok=True)
    return HelmCli(env, root)


def serve_agent_sandbox_api(cluster: DevCluster) -> None:
    try:
        cluster.call("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", SANDBOX_CRD)
    except DevClusterError as exc:
        if "409" not in str(exc):
            raise
    wait_until(lambda: _serves(cluster, AGENTS_API), "the Agent Sandbox CRD to be served", 10, 0.05)


def _serves(cluster: DevCluster, group_version: str) -> bool:
    groups = cluster.call("GET", "/apis")["groups"]
    return any(v["groupVersion"] == group_version for g in groups for v in g["versions"])


@pytest.fixture(scope="module")
def clusters(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, DevCluster]]:
    """One devcluster per flavour for this module, each serving the Agent Sandbox API."""
    with (
        start_devcluster(tmp_path_factory.mktemp("gw-k8s"), flavour="kubernetes") as k8s,
        start_devcluster(tmp_path_factory.mktemp("gw-ocp"), flavour="openshift") as ocp,
    ):
        for cluster in (k8s, ocp):
            serve_agent_sandbox_api(cluster)
        ocp.create_cluster_issuer(ROUTING.issuer_name)
        yield {"kubernetes": k8s, "openshift": ocp}


@pytest.fixture
def offline_helm(tmp_path: Path) -> HelmCli:
    return make_helm(tmp_path, None)


@pytest.fixture
def helm_for(tmp_path: Path) -> Callable[[DevCluster], HelmCli]:
    return lambda cluster: make_helm(tmp_path, cluster)


def spec_for(namespace: str, release: str = "gw", **changes: Any) -> GatewaySpec:
    spec = GatewaySpec(
        namespace=namespace,
        release=release,
        image=GATEWAY_IMAGE,
        supervisor_image=SUPERVISOR_IMAGE,
        oidc_issuer="https://id.example.com/realms/tenants",
        oidc_audience="openshell",
        oidc_ca_configmap="idp-ca",
        has_external_db=True,
    )
    return replace(spec, **changes)


def values_for(flavour: str, spec: GatewaySpec, **cluster_changes: Any) -> dict[str, Any]:
    values = gateway_values(spec, replace(CLUSTERS[flavour], **cluster_changes), ROUTING)
    check_values_keys(values, defaults_from_yaml((CHART / "values.yaml").read_text()))
    return values


def documents(manifest: str) -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(manifest) if doc]


def by_kind(docs: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [doc for doc in docs if doc["kind"] == kind]


def containers(pod_spec: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["name"]: c for c in pod_spec["containers"]}


def prepare_namespace(cluster: DevCluster, release: str) -> str:
    """What the reconciler creates before Helm: the namespace, the DB Secret and the trusted-CA ConfigMap."""
    namespace = cluster.create_namespace("gw")
    uri = base64.b64encode(b"postgresql://gw:secret@db.example.com:5432/gw").decode()
    cluster.call(
        "POST",
        f"/api/v1/namespaces/{namespace}/secrets",
        {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": db_secret_name(release)}, "data": {"uri": uri}},
    )
    for name in (TRUSTED_CA_CONFIGMAP, "idp-ca"):
        cluster.call(
            "POST",
            f"/api/v1/namespaces/{namespace}/configmaps",
            {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": {"ca.crt": "PEM"}},
        )
    return namespace


def get(cluster: DevCluster, path: str) -> dict[str, Any] | None:
    try:
        return cluster.call("GET", path)
    except DevClusterError as exc:
        if "404" in str(exc):
            return None
        raise


# ---------------------------------------------------------------- helm template


def test_template_on_kubernetes_renders_the_exact_images_and_a_grpcroute(offline_helm: HelmCli) -> None:
    spec = spec_for("gw-alpha-1a2b3c4d", release="alpha")
    values = values_for("kubernetes", spec)
    docs = offline_helm.render("alpha", spec.namespace, values)

    (statefulset,) = by_kind(docs, "StatefulSet")
    pod = statefulset["spec"]["template"]["spec"]
    images = {name: c["image"] for name, c in containers(pod).items()}
    assert images == {"gateway": GATEWAY_IMAGE, "supervisor": SUPERVISOR_IMAGE}
    gateway = containers(pod)["gateway"]
    db_env = next(e for e in gateway["env"] if e["name"] == "OPENSHELL_DATABASE_URL")
    assert db_env["valueFrom"]["secretKeyRef"] == {"name": "alpha-db-credentials", "key": "uri"}
    volumes = {v["name"]: v for v in pod["volumes"]}
    # One CA bundle (cluster CA + the tenant's OIDC CA), mounted the upstream way.
    assert volumes["oidc-ca"]["configMap"]["name"] == TRUSTED_CA_CONFIGMAP
    assert volumes["oidc-ca"]["configMap"]["items"] == [{"key": "ca.crt", "path": "ca.crt"}]
    assert "trusted-ca" not in volumes
    mounts = {m["name"]: m["mountPath"] for m in gateway["volumeMounts"]}
    assert mounts["oidc-ca"] == "/etc/openshell-tls/oidc-ca"
    assert {"name": "SSL_CERT_FILE", "value": "/etc/openshell-tls/oidc-ca/ca.crt"} in gateway["env"]

    (route,) = by_kind(docs, "GRPCRoute")
    assert route["spec"]["hostnames"] == ["gw-alpha-1a2b3c4d.apps.east.example.com"]
    assert (
        route["spec"]["parentRefs"][0] | {"name": "public", "namespace": "gateway-system"}
        == (route["spec"]["parentRefs"][0])
    )
    assert route["spec"]["rules"][0]["backendRefs"] == [{"name": "alpha", "port": 8443}]
    assert by_kind(docs, "Route") == by_kind(docs, "Certificate") == []

    (service, headless) = sorted(by_kind(docs, "Service"), key=lambda s: s["metadata"]["name"])
    assert service["spec"]["type"] == "ClusterIP"
    assert service["spec"]["ports"][0] | {"name": "grpc", "port": 8443} == service["spec"]["ports"][0]
    assert headless["spec"]["clusterIP"] == "None"
    assert sandbox_service_account("alpha") in {sa["metadata"]["name"] for sa in by_kind(docs, "ServiceAccount")}
    assert by_kind(docs, "NetworkPolicy") == []  # off unless the cluster asks for it
    with_policy = offline_helm.render("alpha", spec.namespace, values_for("kubernetes", spec, network_policy=True))
    assert len(by_kind(with_policy, "NetworkPolicy")) == 1
    for doc in docs:
        labels = doc["metadata"]["labels"]
        assert STANDARD_LABELS.items() <= labels.items(), doc["metadata"]["name"]
        assert labels["app.kubernetes.io/instance"] == "alpha"


def test_template_renders_the_hook_job_with_its_own_service_account_and_rbac(offline_helm: HelmCli) -> None:
    values = values_for("kubernetes", spec_for("gw-hooks-1"))
    docs = offline_helm.render("gw", "gw-hooks-1", values)
    all_hooks = [d for d in docs if "helm.sh/hook" in (d["metadata"].get("annotations") or {})]
    assert sorted((d["kind"], d["metadata"]["name"]) for d in all_hooks) == [
        (kind, name)
        for kind in ("Job", "Role", "RoleBinding", "ServiceAccount")
        for name in ("gw-certgen", "gw-migrate")
    ]
    hooks = [d for d in all_hooks if d["metadata"]["name"] == "gw-migrate"]
    weights = {}
    for hook in hooks:
        annotations = hook["metadata"]["annotations"]
        assert annotations["helm.sh/hook"] == "pre-install,pre-upgrade"
        assert annotations["helm.sh/hook-delete-policy"] == "before-hook-creation,hook-succeeded"
        weights[hook["kind"]] = int(annotations["helm.sh/hook-weight"])
    assert weights["ServiceAccount"] < weights["Role"] < weights["RoleBinding"] < weights["Job"]
    (job,) = by_kind(hooks, "Job")
    pod = job["spec"]["template"]["spec"]
    assert pod["serviceAccountName"] == "gw-migrate"
    assert containers(pod)["migrate"]["image"] == GATEWAY_IMAGE


def test_template_renders_the_certgen_hook_as_upstream_and_mounts_its_secrets(offline_helm: HelmCli) -> None:
    docs = offline_helm.render("gw", "gw-pki-1", values_for("kubernetes", spec_for("gw-pki-1")))
    (job,) = [d for d in by_kind(docs, "Job") if d["metadata"]["name"] == "gw-certgen"]
    assert job["metadata"]["annotations"]["helm.sh/hook-weight"] == "-20"
    certgen = containers(job["spec"]["template"]["spec"])["certgen"]
    assert certgen["command"] == ["/usr/local/bin/openshell-gateway"]
    sans = [a.removeprefix("--server-san=") for a in certgen["args"] if a.startswith("--server-san=")]
    assert certgen["args"][:4] == [
        "generate-certs",
        "--server-secret-name=openshell-server-tls",
        "--client-secret-name=openshell-client-tls",
        "--jwt-secret-name=gw-jwt-keys",
    ]
    assert sans == [
        "gw",
        "gw.gw-pki-1.svc",
        "gw.gw-pki-1.svc.cluster.local",
        "localhost",
        "gw.localhost",
        "*.gw.localhost",
        "host.docker.internal",
        "host.containers.internal",
        "127.0.0.1",
    ]
    (statefulset,) = by_kind(docs, "StatefulSet")
    pod = statefulset["spec"]["template"]["spec"]
    volumes = {v["name"]: v.get("secret", {}).get("secretName") for v in pod["volumes"]}
    assert (volumes["tls-cert"], volumes["tls-client-ca"], volumes["sandbox-jwt"]) == (
        "openshell-server-tls",
        "openshell-server-tls",
        "gw-jwt-keys",
    )

    docs = offline_helm.render("gw", "gw-pki-1", values_for("openshift", spec_for("gw-pki-1")))
    (job,) = [d for d in by_kind(docs, "Job") if d["metadata"]["name"] == "gw-certgen"]
    assert containers(job["spec"]["template"]["spec"])["certgen"]["args"] == [
        "generate-certs",
        "--jwt-only",
        "--jwt-secret-name=gw-jwt-keys",
    ]
    disabled = deep_merge(values_for("kubernetes", spec_for("gw-pki-1")), {"pkiInitJob": {"enabled": False}})
    docs = offline_helm.render("gw", "gw-pki-1", disabled)
    assert "gw-certgen" not in {d["metadata"]["name"] for d in docs}


def test_template_on_openshift_renders_a_route_and_a_certificate(offline_helm: HelmCli) -> None:
    spec = spec_for("gw-beta-5e6f7a8b", release="beta", route_host="beta.tenant.example.org")
    values = values_for("openshift", spec)
    docs = offline_helm.render("beta", spec.namespace, values)
    (statefulset,) = by_kind(docs, "StatefulSet")
    assert containers(statefulset["spec"]["template"]["spec"])["gateway"]["image"] == GATEWAY_IMAGE

    (route,) = by_kind(docs, "Route")
    assert route["apiVersion"] == "route.openshift.io/v1"
    assert route["spec"]["host"] == "beta.tenant.example.org"
    assert route["spec"]["tls"]["termination"] == "passthrough"
    assert route["spec"]["to"] == {"kind": "Service", "name": "beta", "weight": 100}
    assert route["metadata"]["annotations"] == {"haproxy.router.openshift.io/timeout": "5m"}
    (certificate,) = by_kind(docs, "Certificate")
    assert certificate["spec"]["issuerRef"] == {"group": "cert-manager.io", "name": "corp-ca", "kind": "ClusterIssuer"}
    assert certificate["spec"]["dnsNames"][0] == "beta.tenant.example.org"
    assert "server-tls" in {v["name"] for v in statefulset["spec"]["template"]["spec"]["volumes"]}
    assert by_kind(docs, "GRPCRoute") == []


@pytest.mark.parametrize("flavour", sorted(CLUSTERS))
def test_template_without_a_route_renders_no_route(offline_helm: HelmCli, flavour: str) -> None:
    values = values_for(flavour, spec_for("gw-noroute-1", route_enabled=False, has_external_db=False))
    docs = offline_helm.render("gw", "gw-noroute-1", values)
    assert {d["kind"] for d in docs}.isdisjoint({"GRPCRoute", "Route", "Certificate"})
    (statefulset,) = by_kind(docs, "StatefulSet")
    db_env = next(
        e
        for e in containers(statefulset["spec"]["template"]["spec"])["gateway"]["env"]
        if e["name"] == "OPENSHELL_DATABASE_URL"
    )
    assert "valueFrom" not in db_env  # embedded database


def test_helm_sees_the_same_defaults_and_lints_the_chart(offline_helm: HelmCli) -> None:
    shown = defaults_from_yaml(offline_helm.run("show", "values", str(CHART)).stdout)
    assert shown == yaml.safe_load((CHART / "values.yaml").read_text())
    for flavour in CLUSTERS:
        check_values_keys(gateway_values(spec_for("gw-x-1"), CLUSTERS[flavour], ROUTING), shown)
    offline_helm.run("lint", "--strict", str(CHART), "--set", "agentSandbox.preflight.enabled=false")


# ---------------------------------------------------------------- helm install against devcluster


def test_install_and_upgrade_on_kubernetes(clusters: dict[str, DevCluster], helm_for: Callable[..., HelmCli]) -> None:
    cluster = clusters["kubernetes"]
    helm = helm_for(cluster)
    namespace = prepare_namespace(cluster, "gw")
    spec = spec_for(namespace)
    values = values_for("kubernetes", spec)
    helm.run("install", "gw", str(CHART), "-n", namespace, "-f", helm.values_file(values), "--wait", "--timeout", "60s")

    statefulset = cluster.call("GET", f"/apis/apps/v1/namespaces/{namespace}/statefulsets/gw")
    images = {n: c["image"] for n, c in containers(statefulset["spec"]["template"]["spec"]).items()}
    assert images == {"gateway": GATEWAY_IMAGE, "supervisor": SUPERVISOR_IMAGE}
    assert statefulset["status"]["readyReplicas"] == 1
    route = cluster.call("GET", f"/apis/gateway.networking.k8s.io/v1/namespaces/{namespace}/grpcroutes/gw")
    assert route["spec"]["hostnames"] == [route_host(spec, CLUSTERS["kubernetes"])]
    assert cluster.call("GET", f"/api/v1/namespaces/{namespace}/services/gw")["spec"]["type"] == "ClusterIP"
    assert get(cluster, f"/api/v1/namespaces/{namespace}/serviceaccounts/{sandbox_service_account('gw')}") is not None

    status = json.loads(helm.run("status", "gw", "-n", namespace, "-o", "json").stdout)
    assert status["info"]["status"] == "deployed"
    hooks = {(h["kind"], h["name"]): h["last_run"]["phase"] for h in status["hooks"]}
    assert hooks == {
        (kind, name): "Succeeded"
        for kind in ("ServiceAccount", "Role", "RoleBinding", "Job")
        for name in ("gw-migrate", "gw-certgen")
    }
    for name in ("openshell-server-tls", "openshell-client-tls", "gw-jwt-keys"):
        assert get(cluster, f"/api/v1/namespaces/{namespace}/secrets/{name}"), f"the certgen hook made {name}"
    for path in ("/apis/batch/v1/namespaces/{}/jobs/gw-migrate", "/api/v1/namespaces/{}/serviceaccounts/gw-migrate"):
        assert get(cluster, path.format(namespace)) is None, "hook-succeeded resources are deleted"

    # A spec change converges with upgrade --reset-values: the pre-upgrade hooks run again.
    new_image = f"registry.example.com:5000/openshell/gateway@sha256:{'f' * 64}"
    values = values_for("kubernetes", replace(spec, image=new_image, route_enabled=False))
    helm.run(
        "upgrade",
        "gw",
        str(CHART),
        "-n",
        namespace,
        "--reset-values",
        "-f",
        helm.values_file(values),
        "--wait",
        "--timeout",
        "60s",
    )
    statefulset = cluster.call("GET", f"/apis/apps/v1/namespaces/{namespace}/statefulsets/gw")
    assert containers(statefulset["spec"]["template"]["spec"])["gateway"]["image"] == new_image
    assert get(cluster, f"/apis/gateway.networking.k8s.io/v1/namespaces/{namespace}/grpcroutes/gw") is None
    status = json.loads(helm.run("status", "gw", "-n", namespace, "-o", "json").stdout)
    assert (status["version"], status["info"]["status"]) == (2, "deployed")
    assert json.loads(helm.run("get", "values", "gw", "-n", namespace, "-o", "json").stdout) == values
    helm.run("uninstall", "gw", "-n", namespace, "--wait", "--timeout", "60s")
    cluster.delete_namespace(namespace)


def test_install_on_openshift(clusters: dict[str, DevCluster], helm_for: Callable[..., HelmCli]) -> None:
    cluster = clusters["openshift"]
    helm = helm_for(cluster)
    namespace = prepare_namespace(cluster, "gw")
    spec = spec_for(namespace)
    values = values_for("openshift", spec)
    helm.run("install", "gw", str(CHART), "-n", namespace, "-f", helm.values_file(values), "--wait", "--timeout", "60s")

    statefulset = cluster.call("GET", f"/apis/apps/v1/namespaces/{namespace}/statefulsets/gw")
    images = {n: c["image"] for n, c in containers(statefulset["spec"]["template"]["spec"]).items()}
    assert images == {"gateway": GATEWAY_IMAGE, "supervisor": SUPERVISOR_IMAGE}
    host = route_host(spec, CLUSTERS["openshift"])
    route = cluster.call("GET", f"/apis/route.openshift.io/v1/namespaces/{namespace}/routes/gw")
    assert route["spec"]["host"] == host
    assert route["spec"]["tls"]["termination"] == "passthrough"
    certificate = cluster.call("GET", f"/apis/cert-manager.io/v1/namespaces/{namespace}/certificates/gw-server")
    assert certificate["spec"]["dnsNames"][0] == host
    assert get(cluster, f"/api/v1/namespaces/{namespace}/serviceaccounts/{sandbox_service_account('gw')}")
    assert not _serves(cluster, "gateway.networking.k8s.io/v1")
    helm.run("uninstall", "gw", "-n", namespace, "--wait", "--timeout", "60s")
    cluster.delete_namespace(namespace)


@pytest.mark.parametrize(
    ("patch", "message"),
    [
        ({"grpcRoute": {"hostname": "typo.example.com"}}, "hostname"),
        ({"server": {"trustedCaConfigMapName": "x"}}, "trustedCaConfigMapName"),
        ({"extra": True}, "extra"),
        ({"grpcRoute": {"enabled": "yes"}}, "enabled"),
        ({"certManager": {"serverIssuerRef": {"kind": "Vault"}}}, "kind"),
    ],
)
def test_install_rejects_unknown_keys_and_wrong_types_by_schema(
    clusters: dict[str, DevCluster], helm_for: Callable[..., HelmCli], patch: dict[str, Any], message: str
) -> None:
    cluster = clusters["kubernetes"]
    helm = helm_for(cluster)
    namespace = cluster.create_namespace("gw-schema")
    values = values_for("kubernetes", spec_for(namespace))
    merged = deep_merge(values, patch)
    result = helm.run("install", "gw", str(CHART), "-n", namespace, "-f", helm.values_file(merged), check=False)
    assert result.returncode != 0
    assert "schema" in result.stderr.lower() and message in result.stderr, result.stderr
    assert helm.run("status", "gw", "-n", namespace, check=False).returncode != 0, "no release was created"
    cluster.delete_namespace(namespace)


def test_unknown_keys_caught_by_schema_are_caught_before_helm_too() -> None:
    defaults = defaults_from_yaml((CHART / "values.yaml").read_text())
    values = deep_merge(values_for("kubernetes", spec_for("gw-x-1")), {"grpcRoute": {"hostname": "h"}, "extra": True})
    assert unknown_keys(values, defaults) == ["extra", "grpcRoute.hostname"]


# ---------------------------------------------------------------- the Agent Sandbox preflight


def test_preflight_offline_needs_the_api_version_or_disabling(offline_helm: HelmCli) -> None:
    values_file = offline_helm.values_file(values_for("kubernetes", spec_for("gw-pre-1")))
    failed = offline_helm.run("template", "gw", str(CHART), "-f", values_file, check=False)
    assert failed.returncode != 0 and "preflight" in failed.stderr and AGENTS_API in failed.stderr
    offline_helm.run("template", "gw", str(CHART), "-f", values_file, "--api-versions", AGENTS_API)
    disabled = offline_helm.values_file(
        values_for("kubernetes", spec_for("gw-pre-1"), agent_sandbox_preflight=False), "disabled.json"
    )
    offline_helm.run("template", "gw", str(CHART), "-f", disabled)


@pytest.mark.parametrize("flavour", sorted(CLUSTERS))
def test_preflight_fails_the_install_until_the_agent_sandbox_api_is_served(
    tmp_path: Path, helm_for: Callable[..., HelmCli], flavour: str
) -> None:
    with start_devcluster(tmp_path / "bare", flavour=flavour) as cluster:
        cluster.create_cluster_issuer(ROUTING.issuer_name)  # the route certificate's issuer, as a platform provides
        helm = helm_for(cluster)
        assert not _serves(cluster, AGENTS_API)
        namespace = prepare_namespace(cluster, "gw")
        values_file = helm.values_file(values_for(flavour, spec_for(namespace)))

        failed = helm.run("install", "gw", str(CHART), "-n", namespace, "-f", values_file, check=False)
        assert failed.returncode != 0
        assert "preflight" in failed.stderr and AGENTS_API in failed.stderr, failed.stderr
        assert helm.run("status", "gw", "-n", namespace, check=False).returncode != 0

        # Disabled, the same chart installs on the same cluster, as another release (its cluster-scoped RBAC is
        # named after the release: a second `gw` would collide with the first, as on a real cluster).
        other = prepare_namespace(cluster, "gw-other")
        disabled = helm.values_file(
            values_for(flavour, spec_for(other, release="gw-other"), agent_sandbox_preflight=False), "disabled.json"
        )
        helm.run("install", "gw-other", str(CHART), "-n", other, "-f", disabled, "--wait", "--timeout", "60s")

        # Once the CRD makes agents.x-k8s.io/v1alpha1 served, the preflight passes.
        serve_agent_sandbox_api(cluster)
        helm.run("install", "gw", str(CHART), "-n", namespace, "-f", values_file, "--wait", "--timeout", "60s")
        statefulset = cluster.call("GET", f"/apis/apps/v1/namespaces/{namespace}/statefulsets/gw")
        assert containers(statefulset["spec"]["template"]["spec"])["gateway"]["image"] == GATEWAY_IMAGE

        # And an upgrade fails again when the API goes away: the preflight guards upgrades too.
        cluster.call("DELETE", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/sandboxes.agents.x-k8s.io")
        wait_until(lambda: not _serves(cluster, AGENTS_API), "the Agent Sandbox API to go", 10, 0.05)
        failed = helm.run(
            "upgrade", "gw", str(CHART), "-n", namespace, "--reset-values", "-f", values_file, check=False
        )
        assert failed.returncode != 0 and "preflight" in failed.stderr, failed.stderr
