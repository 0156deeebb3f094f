"""The route-owned BackendTLSPolicy and its CA ConfigMap, kept in step by passes and judged by the fleet resync.

Real parts: `run_pass` and `fleet.resync_cluster` on PostgreSQL rows, the real helm binary with the unmodified
upstream chart, devcluster over HTTP with its Gateway API controller (BackendTLSPolicy status as Envoy Gateway
writes it) and its PKI player standing in for the chart's certgen hook, and the API for turning the route off.
Each test says what was wrong before.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from typing import Any

import pytest
from django.db.models import F
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from devcluster.pki import certgen_bundle
from gateways.models import Gateway, GatewayRelease
from gateways.values import chart_fullname
from tests.fixtures.charts import require_upstream_chart
from tests.fixtures.devcluster import DevCluster, start_devcluster
from tests.fixtures.tls import sans
from tests.integration.test_gateway_real_clusters import (
    BACKEND_TLS,
    converge,
    make_gateway,
    ready_message,
    register,
    running,
    secret_text,
)
from tests.integration.test_gateway_upstream_chart import (  # noqa: F401 (upstream_worker is a fixture)
    delete_through_the_control_plane,
    get,
    upstream_worker,
)
from workers.reconcile.gateway.backend_tls.objects import backend_ca_name, backend_tls_name
from workers.reconcile.gateway.passes import fleet
from workers.reconcile.gateway.passes.run import run_pass

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

SERVER_SECRET = "openshell-server-tls"  # the upstream chart's server.tls.certSecretName
VERSION_ANNOTATION = "controlplane/server-secret-version"


@pytest.fixture(scope="module")
def k8s(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevCluster]:
    """A Kubernetes devcluster serving the Gateway API (with BackendTLSPolicy) and the Agent Sandbox API."""
    require_upstream_chart()
    with start_devcluster(tmp_path_factory.mktemp("route-owned"), extra_presets=("agent-sandbox",)) as dc:
        yield dc


@pytest.fixture
def worker(request: pytest.FixtureRequest, settings: Any) -> Any:
    """This process as a worker on the upstream chart; its settings."""
    request.getfixturevalue("upstream_worker")
    return settings


def configmap_path(gateway: Gateway) -> str:
    return f"/api/v1/namespaces/{gateway.namespace}/configmaps/{backend_ca_name(gateway.helm_release)}"


def policy_path(gateway: Gateway) -> str:
    return BACKEND_TLS.format(ns=gateway.namespace, name=backend_tls_name(gateway.helm_release))


def secret_path(gateway: Gateway) -> str:
    return f"/api/v1/namespaces/{gateway.namespace}/secrets/{SERVER_SECRET}"


def resync(gateway: Gateway) -> list[str]:
    """One fleet resync of the gateway's cluster; the gateways it handed to a pass."""
    enqueued: list[str] = []
    fleet.resync_cluster(str(gateway.cluster_id), enqueue=enqueued.append)
    return enqueued


def running_gateway(dc: DevCluster, alice: Any, name: str, **fields: Any) -> Gateway:
    """A gateway on a Gateway API cluster, Running with both objects, which the next resync leaves alone."""
    gateway = converge(make_gateway(alice, register(dc, name, gateway_api=True), **fields), running)
    assert get(dc, policy_path(gateway)) is not None and get(dc, configmap_path(gateway)) is not None
    resync(gateway)  # the first resync writes the status it judges; the next one finds nothing to do
    assert resync(gateway) == []
    return gateway


def rotate(dc: DevCluster, gateway: Gateway) -> str:
    """What cert-manager does on a CA rotation: a new CA, and a server certificate for the same names signed by
    it, written into the same Secret. Returns the new CA."""
    secret = dc.call("GET", secret_path(gateway))
    bundle = certgen_bundle(sorted(sans(secret_text(dc, gateway.namespace, SERVER_SECRET, "tls.crt").encode())))
    pems = {"ca.crt": bundle.ca.cert_pem, "tls.crt": bundle.server.cert_pem, "tls.key": bundle.server.key_pem}
    secret["data"] = {key: base64.b64encode(pem).decode() for key, pem in pems.items()}
    dc.call("PUT", secret_path(gateway), secret)
    return bundle.ca.cert_pem.decode()


def test_a_rotated_ca_reaches_the_configmap_within_one_resync(k8s, worker, alice) -> None:
    """Before: the fleet judge started a pass only when the policy was absent, so a rotated CA was never followed
    and the proxy kept validating the pod against the old one."""
    gateway = running_gateway(k8s, alice, "rotate")
    new_ca = rotate(k8s, gateway)
    assert resync(gateway) == [str(gateway.pk)], "the stale CA is noticed from the listing alone"
    run_pass(str(gateway.pk))
    configmap = k8s.call("GET", configmap_path(gateway))
    assert configmap["data"]["ca.crt"].strip() == new_ca.strip()
    version = k8s.call("GET", secret_path(gateway))["metadata"]["resourceVersion"]
    for path in (configmap_path(gateway), policy_path(gateway)):
        assert k8s.call("GET", path)["metadata"]["annotations"][VERSION_ANNOTATION] == version
    converge(gateway, running)
    assert resync(gateway) == []
    delete_through_the_control_plane(gateway, k8s)


def test_a_deleted_configmap_comes_back(k8s, worker, alice) -> None:
    gateway = running_gateway(k8s, alice, "cmgone")
    k8s.call("DELETE", configmap_path(gateway))
    assert resync(gateway) == [str(gateway.pk)]
    run_pass(str(gateway.pk))
    assert (
        k8s.call("GET", configmap_path(gateway))["data"]["ca.crt"]
        == secret_text(k8s, gateway.namespace, SERVER_SECRET, "ca.crt").strip() + "\n"
    )
    delete_through_the_control_plane(gateway, k8s)


def assert_both_gone(dc: DevCluster, gateway: Gateway) -> None:
    assert get(dc, policy_path(gateway)) is None
    assert get(dc, configmap_path(gateway)) is None


def test_a_release_that_turns_tls_off_removes_both(k8s, worker, alice) -> None:
    """Before: the policy stayed, so the proxy spoke TLS to a plaintext port while the gateway said Running."""
    gateway = running_gateway(k8s, alice, "tlsoff")
    plaintext = GatewayRelease.objects.create(
        name="plaintext", chart=worker.GATEWAY_CHART, values={"server": {"disableTls": True}}
    )
    Gateway.objects.filter(pk=gateway.pk).update(release=plaintext, generation=F("generation") + 1)
    converge(gateway, running)
    assert_both_gone(k8s, gateway)
    assert resync(gateway) == []
    delete_through_the_control_plane(gateway, k8s)


def test_turning_the_route_off_removes_both(k8s, worker, alice) -> None:
    """Before: `PATCH {"route": null}` left the policy and the ConfigMap behind."""
    gateway = running_gateway(k8s, alice, "routeoff")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=alice)[0].key}")
    response = api.patch(f"/api/v1/gateways/{gateway.pk}/", {"route": {"enabled": False}}, format="json")
    assert response.status_code == 200, response.content
    off = converge(gateway, running)
    assert off.route_address == ""
    assert (
        get(
            k8s,
            f"/apis/gateway.networking.k8s.io/v1/namespaces/{gateway.namespace}/grpcroutes/"
            f"{chart_fullname(gateway.helm_release)}",
        )
        is None
    )
    assert_both_gone(k8s, gateway)
    assert resync(gateway) == []
    delete_through_the_control_plane(gateway, k8s)


def test_a_left_over_policy_is_removed_by_the_resync_and_a_pass(k8s, worker, alice) -> None:
    """The judge's side of it: a policy and ConfigMap that should not exist (put back by hand) get a pass."""
    gateway = converge(make_gateway(alice, register(k8s, "leftover", gateway_api=True), route_enabled=False), running)
    assert_both_gone(k8s, gateway)
    resync(gateway)
    assert resync(gateway) == []
    ns, release = gateway.namespace, gateway.helm_release
    labels = {"controlplane/backend-ca": "true", "app.kubernetes.io/instance": release}
    k8s.call(
        "POST",
        f"/api/v1/namespaces/{ns}/configmaps",
        {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "data": {"ca.crt": "stale"},
            "metadata": {"name": backend_ca_name(release), "namespace": ns, "labels": labels},
        },
    )
    assert resync(gateway) == [str(gateway.pk)], "a ConfigMap alone is enough"
    run_pass(str(gateway.pk))
    assert_both_gone(k8s, gateway)
    k8s.call(
        "POST",
        BACKEND_TLS.format(ns=ns, name="").rstrip("/"),
        {
            "apiVersion": "gateway.networking.k8s.io/v1",
            "kind": "BackendTLSPolicy",
            "metadata": {"name": backend_tls_name(release), "namespace": ns, "labels": labels},
            "spec": {
                "targetRefs": [{"group": "", "kind": "Service", "name": chart_fullname(release)}],
                "validation": {"wellKnownCACertificates": "System", "hostname": "example.test"},
            },
        },
    )
    assert resync(gateway) == [str(gateway.pk)], "a policy alone is enough"
    run_pass(str(gateway.pk))
    assert_both_gone(k8s, gateway)
    delete_through_the_control_plane(gateway, k8s)


def test_an_unaccepted_policy_keeps_the_gateway_out_of_running_with_the_controllers_message(k8s, worker, alice) -> None:
    """Before: no test showed it. An older policy on the same Service makes the Gateway API controller refuse ours
    (Conflicted); once that one goes, ours is accepted and the gateway is Running again."""
    gateway = running_gateway(k8s, alice, "conflict")
    ns, service = gateway.namespace, chart_fullname(gateway.helm_release)
    for path in (policy_path(gateway), configmap_path(gateway)):
        k8s.call("DELETE", path)
    rival = {
        "apiVersion": "gateway.networking.k8s.io/v1",
        "kind": "BackendTLSPolicy",
        # Created first, and first by name too: it wins even within the second (creationTimestamp's resolution).
        "metadata": {"name": "a-platform-policy", "namespace": ns},
        "spec": {
            "targetRefs": [{"group": "", "kind": "Service", "name": service}],
            "validation": {"wellKnownCACertificates": "System", "hostname": "example.test"},
        },
    }
    k8s.call("POST", BACKEND_TLS.format(ns=ns, name="").rstrip("/"), rival)
    assert resync(gateway) == [str(gateway.pk)]

    def refused(current: Gateway) -> bool:
        return "Conflicted" in ready_message(current)

    stuck = converge(gateway, refused)
    assert stuck.phase != "Running" and not stuck.route_address
    assert f"BackendTLSPolicy {ns}/a-platform-policy" in ready_message(stuck)
    assert resync(gateway) == [] and Gateway.objects.get(pk=gateway.pk).phase != "Running", "the judge agrees"

    k8s.call("DELETE", BACKEND_TLS.format(ns=ns, name="a-platform-policy"))
    assert converge(gateway, running).route_address
    delete_through_the_control_plane(gateway, k8s)
