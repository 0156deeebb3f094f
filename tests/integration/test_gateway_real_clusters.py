"""The upstream OpenShell chart on clusters as strict as real ones: admission, mounts, TLS to the pod, shared RBAC.

Real parts: the worker's pass (`run_pass`), the real helm binary with the unmodified upstream chart, devcluster
over HTTP with its pods, Pod Security and SCC admission, and the PKI player standing in for the chart's certgen
hook and for cert-manager (real certificates). Each test says which real-cluster failure it would have caught.
"""

from __future__ import annotations

import base64
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from cryptography import x509
from django.db import connection

from controlplane.models import ManagedCluster
from gateways.models import Gateway, GatewayRelease
from gateways.values import chart_fullname
from tests.fixtures.charts import require_upstream_chart
from tests.fixtures.devcluster import DevCluster, start_devcluster
from tests.helpers import converge_by_passes
from tests.integration.test_gateway_upstream_chart import (  # noqa: F401 (upstream_worker is a fixture)
    delete_through_the_control_plane,
    get,
    upstream_worker,
)
from workers.reconcile.gateway.backend_tls.objects import backend_ca_name, backend_tls_name
from workers.reconcile.gateway.passes.run import run_pass

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

GATEWAY_IMAGE = "registry.example.test:5000/openshell/gateway:1.2.3"
SUPERVISOR_IMAGE = "registry.example.test:5000/openshell/supervisor:1.2.3"
RBAC = "/apis/rbac.authorization.k8s.io/v1"
BACKEND_TLS = "/apis/gateway.networking.k8s.io/v1/namespaces/{ns}/backendtlspolicies/{name}"


@pytest.fixture
def worker(request: pytest.FixtureRequest, settings: Any) -> Any:
    """This process as a worker on the upstream chart (GATEWAY_CERT_ISSUER_NAME `corp-ca`); its settings."""
    request.getfixturevalue("upstream_worker")
    return settings


@pytest.fixture(scope="module")
def k8s(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevCluster]:
    """A Kubernetes devcluster serving the Gateway API (with BackendTLSPolicy) and the Agent Sandbox API."""
    require_upstream_chart()
    with start_devcluster(tmp_path_factory.mktemp("real-k8s"), extra_presets=("agent-sandbox",)) as dc:
        yield dc


@pytest.fixture(scope="module")
def ocp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevCluster]:
    """An OpenShift devcluster: restricted-v2 for every ServiceAccount, per-namespace UID and group ranges."""
    require_upstream_chart()
    with start_devcluster(
        tmp_path_factory.mktemp("real-ocp"), flavour="openshift", extra_presets=("agent-sandbox",)
    ) as dc:
        dc.create_cluster_issuer("corp-ca")
        yield dc


def register(dc: DevCluster, name: str, **fields: Any) -> ManagedCluster:
    return ManagedCluster.objects.create(
        name=name, kubeconfig=dc.kubeconfig.read_text(), base_domain=f"{name}.example.test", **fields
    )


def make_gateway(owner: Any, cluster: ManagedCluster, name: str = "edge", **fields: Any) -> Gateway:
    gateway = Gateway(
        owner=owner, cluster=cluster, name=name, image=GATEWAY_IMAGE, supervisor_image=SUPERVISOR_IMAGE, **fields
    )
    gateway.full_clean(exclude=["namespace", "helm_release_name"])
    gateway.assign_namespace()
    gateway.save()
    return gateway


def converge(gateway: Gateway, done: Callable[[Gateway], bool]) -> Gateway:
    """Run passes as the worker would until `done` holds for the gateway at its current generation."""
    return converge_by_passes(gateway, done)


def running(gateway: Gateway) -> bool:
    return gateway.phase == "Running"


def ready_message(gateway: Gateway) -> str:
    return next((c["message"] for c in gateway.conditions if c["type"] == "Ready"), "")


def pods(dc: DevCluster, namespace: str) -> list[dict[str, Any]]:
    return dc.call("GET", f"/api/v1/namespaces/{namespace}/pods")["items"]


def secret_text(dc: DevCluster, namespace: str, name: str, key: str) -> str:
    secret = dc.call("GET", f"/api/v1/namespaces/{namespace}/secrets/{name}")
    return base64.b64decode(secret["data"][key]).decode()


# ------------------------------------------------------------------------------------------------ OpenShift


def test_the_upstream_chart_runs_under_restricted_v2_with_the_namespaces_uid(ocp, worker, alice) -> None:
    """Before: the chart's runAsUser/fsGroup 1000 were refused by restricted-v2, and devcluster never noticed."""
    cluster = register(ocp, "ocp", flavour="openshift", gateway_api=False)
    gateway = converge(make_gateway(alice, cluster), running)
    namespace = ocp.call("GET", f"/api/v1/namespaces/{gateway.namespace}")
    first_uid = int(namespace["metadata"]["annotations"]["openshift.io/sa.scc.uid-range"].split("/")[0])
    gateway_pod = f"{chart_fullname(gateway.helm_release)}-0"  # the StatefulSet's only pod
    (pod,) = [p for p in pods(ocp, gateway.namespace) if p["metadata"]["name"] == gateway_pod]
    assert pod["metadata"]["annotations"]["openshift.io/scc"] == "restricted-v2"
    assert pod["spec"]["securityContext"]["fsGroup"] == first_uid  # assigned from the namespace's groups
    (container,) = pod["spec"]["containers"]
    assert container["securityContext"]["runAsUser"] == first_uid  # assigned from the namespace's range
    assert pod["status"]["phase"] == "Running"
    delete_through_the_control_plane(gateway, ocp)


def test_the_charts_default_uid_is_refused_and_the_gateway_says_which_scc_rule(ocp, worker, alice) -> None:
    """The same OpenShift cluster registered as plain Kubernetes: the mapping keeps the chart's 1000s, as it did
    for OpenShift before, and restricted-v2 refuses the StatefulSet's pod. Ready names the SCC and the rule."""
    cluster = register(ocp, "ocp-as-k8s", flavour="kubernetes", gateway_api=False)
    gateway = make_gateway(alice, cluster, route_enabled=False)

    def refused(current: Gateway) -> bool:
        return "unable to validate against any security context constraint" in ready_message(current)

    stuck = converge(gateway, refused)
    message = ready_message(stuck)
    assert stuck.phase == "Provisioning" and not stuck.route_address
    assert "FailedCreate" in message and "restricted-v2" in message
    assert "1000 is not an allowed group" in message or "must be in the ranges" in message
    statefulset = ocp.call(
        "GET", f"/apis/apps/v1/namespaces/{gateway.namespace}/statefulsets/{chart_fullname(gateway.helm_release)}"
    )
    assert statefulset["status"].get("readyReplicas", 0) == 0
    delete_through_the_control_plane(stuck, ocp)


# ------------------------------------------------------------------------------------- Pod Security (Kubernetes)


@pytest.fixture(scope="module")
def k8s_restricted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevCluster]:
    """A Kubernetes cluster whose AdmissionConfiguration enforces `restricted` where namespaces say nothing."""
    require_upstream_chart()
    with start_devcluster(
        tmp_path_factory.mktemp("real-k8s-restricted"),
        extra_presets=("agent-sandbox",),
        extra_args=("--pod-security-default", "restricted"),
    ) as dc:
        yield dc


def test_restricted_refuses_the_charts_certgen_hook_and_the_gateway_says_so(k8s_restricted, worker, alice) -> None:
    """With no label of ours the cluster's `restricted` default applies: the hook Job's pod sets neither
    runAsNonRoot nor a seccomp profile (and no value can add them), so it is refused and the install fails."""
    worker.GATEWAY_POD_SECURITY = "none"
    worker.HELM_TIMEOUT_SECONDS = 8
    cluster = register(k8s_restricted, "strict", gateway_api=True)
    gateway = make_gateway(alice, cluster)
    run_pass(str(gateway.pk))
    failed = Gateway.objects.get(pk=gateway.pk)
    assert failed.failure_count == 1, failed.conditions
    message = ready_message(failed)
    assert 'violates PodSecurity "restricted:latest"' in message and "certgen" in message
    namespace = k8s_restricted.call("GET", f"/api/v1/namespaces/{gateway.namespace}")
    assert "pod-security.kubernetes.io/enforce" not in namespace["metadata"]["labels"]
    delete_through_the_control_plane(failed, k8s_restricted)


def test_gateway_namespaces_enforce_baseline_which_the_chart_passes(k8s_restricted, worker, alice) -> None:
    """GATEWAY_POD_SECURITY's default labels each gateway namespace `baseline`, the strictest level every pod
    of the upstream chart passes; on a `restricted` cluster the gateway then runs."""
    cluster = register(k8s_restricted, "strict-labelled", gateway_api=True)
    gateway = converge(make_gateway(alice, cluster), running)
    namespace = k8s_restricted.call("GET", f"/api/v1/namespaces/{gateway.namespace}")
    assert namespace["metadata"]["labels"]["pod-security.kubernetes.io/enforce"] == "baseline"
    assert all(p["status"]["phase"] in ("Running", "Succeeded") for p in pods(k8s_restricted, gateway.namespace))
    delete_through_the_control_plane(gateway, k8s_restricted)


# ------------------------------------------------------------------------------------------ Missing Secrets


def test_a_secret_that_never_appears_keeps_the_gateway_out_of_running(tmp_path, worker, alice) -> None:
    """No certgen player: the hook Job 'succeeds' (containers do not run) but its Secrets never appear. A real
    kubelet keeps the pod in ContainerCreating; the gateway must not turn Running, and must name the Secret."""
    with start_devcluster(tmp_path / "no-pki", extra_presets=("agent-sandbox",), pki=False) as dc:
        cluster = register(dc, "nopki", gateway_api=True)
        gateway = make_gateway(alice, cluster)

        hook_secrets = (f"{chart_fullname(gateway.helm_release)}-jwt-keys", "openshell-server-tls")

        def waiting_for_the_secret(current: Gateway) -> bool:
            return any(f'secret "{name}" not found' in ready_message(current) for name in hook_secrets)

        stuck = converge(gateway, waiting_for_the_secret)
        assert stuck.phase == "Provisioning" and not stuck.route_address
        assert "FailedMount" in ready_message(stuck)
        delete_through_the_control_plane(stuck, dc)


# ------------------------------------------------------------------------------------- TLS behind the Gateway API


def verify_backend_tls(dc: DevCluster, gateway: Gateway) -> None:
    """The policy's hostname is a SAN of the certificate the pod serves, and its CA ConfigMap verifies it."""
    ns, release = gateway.namespace, gateway.helm_release
    policy = dc.call("GET", BACKEND_TLS.format(ns=ns, name=backend_tls_name(release)))
    fullname = chart_fullname(release)
    assert policy["spec"]["targetRefs"] == [{"group": "", "kind": "Service", "name": fullname}]
    (ca_ref,) = policy["spec"]["validation"]["caCertificateRefs"]
    assert ca_ref == {"group": "", "kind": "ConfigMap", "name": backend_ca_name(release)}
    ca_pem = dc.call("GET", f"/api/v1/namespaces/{ns}/configmaps/{ca_ref['name']}")["data"]["ca.crt"]
    served = x509.load_pem_x509_certificate(secret_text(dc, ns, "openshell-server-tls", "tls.crt").encode())
    sans = served.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert policy["spec"]["validation"]["hostname"] in sans.get_values_for_type(x509.DNSName)
    served.verify_directly_issued_by(x509.load_pem_x509_certificate(ca_pem.encode()))  # raises unless signed by it


def test_a_gateway_api_route_keeps_tls_to_the_pod(k8s, worker, alice) -> None:
    """Before: a GRPCRoute to a TLS port with no BackendTLSPolicy, so the proxy spoke plaintext to it."""
    cluster = register(k8s, "gwapi", gateway_api=True)
    gateway = converge(make_gateway(alice, cluster), running)
    assert gateway.route_address == f"grpcs://{gateway.namespace}.gwapi.example.test:443"
    verify_backend_tls(k8s, gateway)
    delete_through_the_control_plane(gateway, k8s)
    for path in (
        BACKEND_TLS.format(ns=gateway.namespace, name=backend_tls_name(gateway.helm_release)),
        f"/api/v1/namespaces/{gateway.namespace}/configmaps/{backend_ca_name(gateway.helm_release)}",
    ):
        assert get(k8s, path) is None


def test_in_cert_manager_mode_the_policy_trusts_the_charts_ca(k8s, worker, alice) -> None:
    """A release whose values enable cert-manager: the chart's own CA signs the server certificate."""
    release = GatewayRelease.objects.create(
        name="cert-manager", chart=worker.GATEWAY_CHART, values={"certManager": {"enabled": True}}
    )
    cluster = register(k8s, "gwapi-cm", gateway_api=True)
    gateway = make_gateway(alice, cluster, release=release)
    gateway = converge(gateway, running)
    assert get(k8s, f"/apis/cert-manager.io/v1/namespaces/{gateway.namespace}/certificates") is not None
    verify_backend_tls(k8s, gateway)
    ca_secret = secret_text(k8s, gateway.namespace, "openshell-ca-tls", "tls.crt")  # certManager.caSecretName
    policy_ca = k8s.call(
        "GET", f"/api/v1/namespaces/{gateway.namespace}/configmaps/{backend_ca_name(gateway.helm_release)}"
    )["data"]["ca.crt"]
    assert x509.load_pem_x509_certificate(policy_ca.encode()) == x509.load_pem_x509_certificate(ca_secret.encode())
    delete_through_the_control_plane(gateway, k8s)


# ----------------------------------------------------------------------------------- Tenants sharing a cluster


def node_reader(dc: DevCluster, gateway: Gateway) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    name = f"{chart_fullname(gateway.helm_release)}-node-reader"
    return get(dc, f"{RBAC}/clusterroles/{name}"), get(dc, f"{RBAC}/clusterrolebindings/{name}")


def assert_own_rbac(dc: DevCluster, gateway: Gateway) -> None:
    role, binding = node_reader(dc, gateway)
    assert role is not None and binding is not None
    assert binding["roleRef"]["name"] == role["metadata"]["name"]
    assert binding["subjects"] == [
        {"kind": "ServiceAccount", "name": chart_fullname(gateway.helm_release), "namespace": gateway.namespace}
    ]


def in_threads(*calls: Callable[[], object]) -> None:
    """Run the calls at once, each on a thread with its own database connection."""
    errors: list[BaseException] = []

    def run(call: Callable[[], object]) -> None:
        try:
            call()
        except BaseException as exc:  # re-raised in the test's thread
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


@pytest.mark.parametrize("at_once", [True, False], ids=["created-at-once", "one-after-the-other"])
def test_two_owners_gateways_named_edge_each_get_their_own_cluster_rbac(k8s, worker, alice, bob, at_once) -> None:
    """Before: both releases were `edge`, so `edge-openshell-node-reader` was one object for two gateways."""
    cluster = register(k8s, f"shared-{int(at_once)}", gateway_api=True)
    first, second = make_gateway(alice, cluster), make_gateway(bob, cluster)
    if at_once:
        in_threads(*(lambda g=g: converge(g, running) for g in (first, second)))
    else:
        converge(first, running)
        converge(second, running)
    first, second = (Gateway.objects.get(pk=g.pk) for g in (first, second))
    assert first.phase == second.phase == "Running"
    assert first.helm_release != second.helm_release
    assert_own_rbac(k8s, first)
    assert_own_rbac(k8s, second)

    delete_through_the_control_plane(first, k8s)
    assert node_reader(k8s, first) == (None, None)
    assert_own_rbac(k8s, second)  # uninstalling one gateway leaves the other's objects
    delete_through_the_control_plane(second, k8s)
    assert node_reader(k8s, second) == (None, None)


def test_a_gateway_installed_before_the_change_keeps_its_release(k8s, worker, alice) -> None:
    """Gateways from before release names were stored keep their name as the release (the migration): the new
    control plane converges them without renaming, reinstalling or a new revision."""
    cluster = register(k8s, "legacy", gateway_api=True)
    gateway = make_gateway(alice, cluster)
    Gateway.objects.filter(pk=gateway.pk).update(helm_release_name="edge")  # as the migration leaves it
    installed = converge(gateway, running)
    assert (installed.release_name, installed.release_revision) == ("edge", 1)
    assert_own_rbac(k8s, installed)
    for _ in range(3):
        run_pass(str(gateway.pk))
    again = Gateway.objects.get(pk=gateway.pk)
    assert (again.phase, again.release_name, again.release_revision) == ("Running", "edge", 1)
    delete_through_the_control_plane(again, k8s)
