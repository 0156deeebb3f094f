"""Drift detection and repair, and missing prerequisite APIs, through the real pass and fleet resync.

Real parts: `run_pass` and `fleet.resync_cluster` on PostgreSQL rows, the real helm binary with the
mirror chart, devcluster over HTTP (both flavours), and the real probe. Objects are changed behind
Helm's back with plain API calls; assertions are on the cluster's objects and the published status.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from controlplane.models import ManagedCluster
from gateways.models import Gateway, GatewayEvent
from gateways.values import chart_fullname
from tests.fixtures.devcluster import DevCluster, start_devcluster
from tests.integration.test_gateway_upstream_chart import (  # noqa: F401 (upstream_worker is a fixture)
    GATEWAY_IMAGE,
    converge,
    delete_through_the_control_plane,
    gateway_container,
    get,
    make_gateway,
    statefulset_of,
    upstream_worker,
)
from tests.paths import DEVCLUSTER_PRESETS
from tests.waiting import wait_until
from workers import cluster_probe
from workers.reconcile.gateway.observation.cluster_reads import FETCH_ONE_BY_ONE
from workers.reconcile.gateway.passes import fleet
from workers.reconcile.gateway.passes.run import run_pass

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def fullname(gateway: Gateway) -> str:
    """The chart's name for the gateway's objects: `<release>-openshell` (the release is `<name>-<id8>`)."""
    return chart_fullname(gateway.helm_release)


AGENT_SANDBOX_CRD = DEVCLUSTER_PRESETS / "agent-sandbox.yaml"


@pytest.fixture(scope="module")
def clusters(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, DevCluster]]:
    with (
        start_devcluster(tmp_path_factory.mktemp("drift-k8s"), extra_presets=("agent-sandbox",)) as k8s,
        start_devcluster(
            tmp_path_factory.mktemp("drift-ocp"), flavour="openshift", extra_presets=("agent-sandbox",)
        ) as ocp,
    ):
        ocp.create_cluster_issuer("corp-ca")  # the worker's GATEWAY_CERT_ISSUER_NAME (upstream_worker)
        yield {"kubernetes": k8s, "openshift": ocp}


@pytest.fixture
def worker(request: pytest.FixtureRequest, settings: Any) -> Any:
    """This process as a worker with the upstream chart; tests set GATEWAY_DRIFT_DETECTION on it."""
    request.getfixturevalue("upstream_worker")
    return settings


def register(dc: DevCluster, flavour: str) -> ManagedCluster:
    return ManagedCluster.objects.create(
        name=f"drift-{flavour[:3]}",
        flavour=flavour,
        kubeconfig=dc.kubeconfig.read_text(),
        base_domain=f"{flavour[:3]}.example.test",
        gateway_api=flavour == "kubernetes",
    )


def condition(gateway: Gateway, type_: str) -> dict[str, Any]:
    current = Gateway.objects.get(pk=gateway.pk)
    return next(c for c in current.conditions if c["type"] == type_)


def drift_events(gateway: Gateway) -> list[str]:
    return list(
        GatewayEvent.objects.filter(gateway_id=gateway.pk, reason="DriftDetected").values_list("message", flat=True)
    )


def resync(cluster: ManagedCluster, dc: DevCluster) -> tuple[fleet.ResyncReport, list[str]]:
    """One fleet resync; also proves it read the cluster with cluster-wide LISTs, and single objects only where
    this process had not read their current version (at most FETCH_ONE_BY_ONE of them)."""
    enqueued: list[str] = []
    dc.clear_requests()
    report = fleet.resync_cluster(str(cluster.pk), enqueue=enqueued.append)
    calls = dc.requests()
    assert calls and all(r["method"] == "GET" for r in calls), calls
    assert len([r for r in calls if "/namespaces/" in r["path"]]) <= FETCH_ONE_BY_ONE, calls
    return report, enqueued


def test_an_unchanged_cluster_is_read_again_by_metadata_and_its_workloads_only(clusters, worker, alice) -> None:
    dc = clusters["kubernetes"]
    cluster = register(dc, "kubernetes")
    gateway = make_gateway(alice, cluster)
    converge(gateway, "Running")
    resync(cluster, dc)
    report, enqueued = resync(cluster, dc)
    assert (enqueued, report.written) == ([], 0)
    calls = dc.requests()
    assert not [r for r in calls if "/namespaces/" in r["path"]], "no object is read one by one"
    whole = sorted(r["path"] for r in calls if "PartialObjectMetadataList" not in r["accept"])
    assert whole == sorted(
        [
            "/api/v1/namespaces",
            "/apis/apps/v1/deployments",
            "/apis/apps/v1/statefulsets",
            "/apis/gateway.networking.k8s.io/v1/backendtlspolicies",
            "/apis/gateway.networking.k8s.io/v1/grpcroutes",
            "/apis/route.openshift.io/v1/routes",  # a drift kind: not served here (404), so simply empty
        ]
    ), "only the kinds whose status is judged are listed whole; Helm's records and the rest by metadata"
    delete_through_the_control_plane(gateway, dc)


def ns_path(gateway: Gateway, api: str, plural: str, name: str = "") -> str:
    base = "/api/v1" if api == "v1" else f"/apis/{api}"
    return f"{base}/namespaces/{gateway.namespace}/{plural}" + (f"/{name}" if name else "")


def set_image(dc: DevCluster, gateway: Gateway, image: str) -> None:
    """A hand edit: PUT the StatefulSet back with another gateway image."""
    statefulset = statefulset_of(dc, gateway)
    gateway_container(statefulset)["image"] = image
    dc.call("PUT", ns_path(gateway, "apps/v1", "statefulsets", fullname(gateway)), statefulset)

    def rolled_out() -> bool:  # so that the resyncs below see drift, not a rollout in progress
        current = statefulset_of(dc, gateway)
        status = current.get("status", {})
        return (
            status.get("observedGeneration", 0) >= current["metadata"]["generation"]
            and status.get("readyReplicas", 0) >= 1
        )

    wait_until(rolled_out, "the edited StatefulSet to roll out", timeout=20)


def image_of(dc: DevCluster, gateway: Gateway) -> str:
    return gateway_container(statefulset_of(dc, gateway))["image"]


def assert_repaired(gateway: Gateway, cluster: ManagedCluster, dc: DevCluster, what: str, restored: Any) -> None:
    """The resync hands the drifted gateway to a pass, which upgrades; the object is back and Drifted is False."""
    before = Gateway.objects.get(pk=gateway.pk).release_revision
    report, enqueued = resync(cluster, dc)
    assert enqueued == [str(gateway.pk)], report
    run_pass(str(gateway.pk))
    repaired = converge(gateway, "Running")
    assert repaired.release_revision == before + 1
    assert restored(), f"{what} was not repaired"
    assert condition(gateway, "Drifted")["status"] == "False"
    assert any(what in message for message in drift_events(gateway)), drift_events(gateway)


def rolled_out(dc: DevCluster, gateway: Gateway) -> bool:
    """The StatefulSet runs its current template on every replica (a changed image rolls the pod first)."""
    statefulset = dc.call("GET", ns_path(gateway, "apps/v1", "statefulsets", fullname(gateway)))
    status, replicas = statefulset.get("status") or {}, statefulset["spec"].get("replicas", 1)
    return (
        status.get("observedGeneration") == statefulset["metadata"]["generation"]
        and status.get("readyReplicas", 0) == status.get("updatedReplicas", 0) == replicas
        and status.get("currentRevision") == status.get("updateRevision")
    )


def policies_settled(dc: DevCluster, gateway: Gateway) -> bool:
    """Every BackendTLSPolicy of the namespace (if the cluster serves the API) has the route's Gateway as its
    ancestor exactly while the route exists, and says Accepted there exactly when the Services it targets exist
    (its controller answers a deleted Service or route in its own time)."""
    listed = get(dc, ns_path(gateway, "gateway.networking.k8s.io/v1", "backendtlspolicies"))  # None: not served
    routed = bool((get(dc, ns_path(gateway, "gateway.networking.k8s.io/v1", "grpcroutes")) or {}).get("items"))
    for policy in (listed or {}).get("items") or []:
        targets = [ref["name"] for ref in policy["spec"].get("targetRefs") or []]
        present = all(get(dc, ns_path(gateway, "v1", "services", name)) is not None for name in targets)
        ancestors = (policy.get("status") or {}).get("ancestors") or []
        accepted = {c["type"]: c["status"] for ancestor in ancestors for c in ancestor.get("conditions") or []}.get(
            "Accepted"
        )
        if bool(ancestors) != routed or (routed and accepted != ("True" if present else "False")):
            return False
    return True


def assert_reported(gateway: Gateway, cluster: ManagedCluster, dc: DevCluster, what: str) -> None:
    """Warn mode: the resync reports the drift (one event), starts no pass, and a second resync writes nothing.

    Both resyncs run once the cluster is steady: a changed image rolls the pod, a deleted Service turns its
    BackendTLSPolicy unaccepted, and either is news."""
    wait_until(lambda: rolled_out(dc, gateway) and policies_settled(dc, gateway), "the cluster to settle")
    revision, events = Gateway.objects.get(pk=gateway.pk).release_revision, len(drift_events(gateway))
    report, enqueued = resync(cluster, dc)
    assert (enqueued, report.written) == ([], 1), report
    drifted = condition(gateway, "Drifted")
    assert (drifted["status"], drifted["reason"]) == ("True", "DriftDetected")
    assert what in drifted["message"], drifted["message"]
    assert len(drift_events(gateway)) == events + 1
    report, enqueued = resync(cluster, dc)
    assert (enqueued, report.written, len(drift_events(gateway))) == ([], 0, events + 1)
    current = Gateway.objects.get(pk=gateway.pk)  # a missing route makes it Degraded, honestly
    assert (current.release_revision, current.failure_count) == (revision, 0)


def test_kubernetes_drift_is_repaired_when_enabled(clusters, worker, alice) -> None:
    dc = clusters["kubernetes"]
    cluster = register(dc, "kubernetes")
    gateway = make_gateway(alice, cluster)
    converge(gateway, "Running")
    drifted = condition(gateway, "Drifted")
    assert (drifted["status"], drifted["reason"]) == ("False", "NoDrift")
    report, enqueued = resync(cluster, dc)
    assert (enqueued, report.written) == ([], 0), "a clean gateway needs neither a pass nor a write"

    dc.call("DELETE", ns_path(gateway, "v1", "services", fullname(gateway)))
    assert_repaired(
        gateway,
        cluster,
        dc,
        f"Service {fullname(gateway)} is missing",
        lambda: get(dc, ns_path(gateway, "v1", "services", fullname(gateway))),
    )

    dc.call("DELETE", ns_path(gateway, "gateway.networking.k8s.io/v1", "grpcroutes", fullname(gateway)))
    assert_repaired(
        gateway,
        cluster,
        dc,
        f"GRPCRoute {fullname(gateway)} is missing",
        lambda: get(dc, ns_path(gateway, "gateway.networking.k8s.io/v1", "grpcroutes", fullname(gateway))),
    )

    set_image(dc, gateway, "evil.example.test/gw:6.6.6")
    assert_repaired(
        gateway,
        cluster,
        dc,
        "spec.template.spec.containers[openshell-gateway].image",
        lambda: image_of(dc, gateway) == GATEWAY_IMAGE,
    )
    delete_through_the_control_plane(gateway, dc)


def test_kubernetes_drift_is_only_reported_in_warn_mode(clusters, worker, alice) -> None:
    worker.GATEWAY_DRIFT_DETECTION = "warn"
    dc = clusters["kubernetes"]
    cluster = register(dc, "kubernetes")
    gateway = make_gateway(alice, cluster)
    converge(gateway, "Running")

    dc.call("DELETE", ns_path(gateway, "v1", "services", fullname(gateway)))
    assert_reported(gateway, cluster, dc, f"Service {fullname(gateway)} is missing")
    dc.call("DELETE", ns_path(gateway, "gateway.networking.k8s.io/v1", "grpcroutes", fullname(gateway)))
    assert_reported(gateway, cluster, dc, f"GRPCRoute {fullname(gateway)} is missing")
    set_image(dc, gateway, "evil.example.test/gw:6.6.6")
    assert_reported(
        gateway,
        cluster,
        dc,
        f"StatefulSet {fullname(gateway)} differs at spec.template.spec.containers[openshell-gateway].image",
    )

    # A full pass judges alike: it reports, and leaves the cluster as it is.
    run_pass(str(gateway.pk))
    assert image_of(dc, gateway) == "evil.example.test/gw:6.6.6"
    assert get(dc, ns_path(gateway, "v1", "services", fullname(gateway))) is None
    assert condition(gateway, "Drifted")["status"] == "True"
    delete_through_the_control_plane(gateway, dc)


def test_openshift_route_drift_warn_then_enabled(clusters, worker, alice) -> None:
    dc = clusters["openshift"]
    cluster = register(dc, "openshift")
    gateway = make_gateway(alice, cluster)
    converge(gateway, "Running")
    route = ns_path(gateway, "route.openshift.io/v1", "routes", fullname(gateway))
    assert get(dc, route)

    worker.GATEWAY_DRIFT_DETECTION = "warn"
    dc.call("DELETE", route)
    assert_reported(gateway, cluster, dc, f"Route {fullname(gateway)} is missing")
    assert get(dc, route) is None

    worker.GATEWAY_DRIFT_DETECTION = "enabled"
    assert_repaired(gateway, cluster, dc, f"Route {fullname(gateway)} is missing", lambda: get(dc, route))
    delete_through_the_control_plane(gateway, dc)


def test_a_missing_agent_sandbox_api_waits_before_helm_and_converges_once_probed(
    tmp_path: Path, worker, alice, admin_user, client
) -> None:
    with start_devcluster(tmp_path / "bare") as dc:  # no agent-sandbox preset: the chart's preflight would fail
        cluster = register(dc, "kubernetes")
        cluster_probe.probe(cluster)
        cluster.refresh_from_db()
        assert cluster.capabilities == {
            "agent_sandbox": False,
            "grpc_route": True,
            "backend_tls_policy": True,
            "openshift_route": False,
            "cert_manager": True,
        }
        gateway = make_gateway(alice, cluster)
        for _ in range(2):
            run_pass(str(gateway.pk))
        waiting = Gateway.objects.get(pk=gateway.pk)
        missing, ready = condition(gateway, "PrerequisitesMissing"), condition(gateway, "Ready")
        assert (missing["status"], ready["status"], ready["reason"]) == ("True", "False", "PrerequisitesMissing")
        assert "Agent Sandbox (agents.x-k8s.io)" in missing["message"] and "preflight" not in ready["message"]
        assert (waiting.phase, waiting.failure_count, waiting.release_revision) == ("Pending", 0, 0)
        assert dc.call("GET", "/api/v1/secrets?labelSelector=owner%3Dhelm")["items"] == [], "helm ran"
        assert fleet.resync_cluster(str(cluster.pk), enqueue=[].append).passes == 0, "it waits without a pass"

        # The API and the console show the matrix.
        client.force_login(admin_user)
        listed = client.get("/api/v1/clusters/").json()["results"][0]["status"]["capabilities"]
        assert listed == cluster.capabilities
        page = client.get(f"/admin/controlplane/managedcluster/{cluster.pk}/change/").content.decode()
        assert "Agent Sandbox (agents.x-k8s.io)" in page and "Not served" in page

        for crd in yaml.safe_load_all(AGENT_SANDBOX_CRD.read_text()):
            dc.call("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd)
        cluster_probe.probe(cluster)
        cluster.refresh_from_db()
        assert cluster.capabilities["agent_sandbox"] is True
        queued: list[str] = []
        fleet.resync_cluster(str(cluster.pk), enqueue=queued.append)
        assert queued == [str(gateway.pk)]
        running = converge(gateway, "Running")
        assert (running.failure_count, running.release_revision) == (0, 1)
        assert condition(gateway, "PrerequisitesMissing")["status"] == "False"
