"""Deletes finish: a gateway whose helm uninstall always fails is gone after GATEWAY_DELETE_MAX_FAILURES failed
uninstalls, or at once on a platform admin's force delete, and nothing of its release is left on the cluster.

The failure is Helm's own: the release's record (its ``sh.helm.release.v1`` Secret) is overwritten with bytes
helm cannot decode, as a botched manual edit or a storage bug would leave it, so every ``helm uninstall`` fails.
Real parts: the worker's pass (``run_pass``) on PostgreSQL rows, the real helm binary with the mirror chart, and
devcluster over HTTP; leftovers are looked for by listing namespaces and the cluster-scoped kinds.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from typing import Any

import pytest

from controlplane.models import ManagedCluster
from gateways import operations
from gateways.models import Gateway, GatewayEvent
from gateways.states import Reason
from tests.fixtures.devcluster import DevCluster, start_devcluster
from tests.helpers import converge_by_passes
from workers.reconcile.gateway.actions.purge import CLUSTER_SCOPED, release_selector
from workers.reconcile.gateway.passes.run import run_pass

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

GATEWAY_IMAGE = "reg.example.test:5000/openshell/gateway:1.0.0"
SUPERVISOR_IMAGE = "reg.example.test:5000/openshell/supervisor:1.0.0"
PURGE_STEPS = [
    Reason.FORCED_DELETE,
    Reason.CLUSTER_OBJECTS_DELETED,
    Reason.OWN_OBJECTS_DELETED,
    Reason.NAMESPACE_DELETED,
]


@pytest.fixture(scope="module")
def devcluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevCluster]:
    with start_devcluster(tmp_path_factory.mktemp("delete-k8s"), extra_presets=("agent-sandbox",)) as dc:
        yield dc


@pytest.fixture
def running(devcluster: DevCluster, mirror_worker: None, alice: Any) -> Gateway:
    cluster = ManagedCluster.objects.create(
        name="del", kubeconfig=devcluster.kubeconfig.read_text(), base_domain="del.example.test"
    )
    gateway = Gateway(
        owner=alice, cluster=cluster, name="stuck", image=GATEWAY_IMAGE, supervisor_image=SUPERVISOR_IMAGE
    )
    gateway.assign_namespace()
    gateway.save()
    return converge_by_passes(gateway, lambda current: current.phase == "Running")


def break_helms_record(dc: DevCluster, gateway: Gateway) -> None:
    """Overwrite each of the release's records with bytes that are not a gzipped release."""
    path = f"/api/v1/namespaces/{gateway.namespace}/secrets"
    records = dc.call("GET", f"{path}?labelSelector=owner%3Dhelm,name%3D{gateway.helm_release}")["items"]
    assert records, "helm keeps its record in Secrets"
    for record in records:
        record["data"]["release"] = base64.b64encode(b"not a release").decode()
        dc.call("PUT", f"{path}/{record['metadata']['name']}", record)


def leftovers(dc: DevCluster, gateway: Gateway) -> list[str]:
    """Every namespace and cluster-scoped object of the gateway's release still on the cluster."""
    found = [
        f"Namespace {ns['metadata']['name']}"
        for ns in dc.call("GET", "/api/v1/namespaces")["items"]
        if ns["metadata"]["name"] == gateway.namespace
    ]
    selector = release_selector(gateway.helm_release).replace("=", "%3D")
    for api_version, plural in CLUSTER_SCOPED:
        items = dc.call("GET", f"/apis/{api_version}/{plural}?labelSelector={selector}")["items"]
        found += [f"{plural} {item['metadata']['name']}" for item in items]
    return found


def passes_until_gone(gateway: Gateway) -> list[str]:
    """Run passes until the row goes; the reasons of the events recorded meanwhile, oldest first."""
    reasons: list[str] = []
    for _ in range(40):
        run_pass(str(gateway.pk))
        seen = list(GatewayEvent.objects.filter(gateway_id=gateway.pk).order_by("id").values_list("reason", flat=True))
        reasons = seen or reasons
        if not Gateway.objects.filter(pk=gateway.pk).exists():
            return reasons
    pytest.fail(f"the row never went: {reasons}")


def test_a_failing_uninstall_ends_after_the_bounded_retries(
    running: Gateway, devcluster: DevCluster, settings: Any, alice: Any
) -> None:
    settings.GATEWAY_DELETE_MAX_FAILURES = 3
    assert len(leftovers(devcluster, running)) == 3, "a namespace, a ClusterRole and a ClusterRoleBinding"
    break_helms_record(devcluster, running)
    operations.request_deletion(Gateway.objects.filter(pk=running.pk), alice, "test")
    for failures in (1, 2, 3):
        run_pass(str(running.pk))
        gateway = Gateway.objects.get(pk=running.pk)
        assert (gateway.phase, gateway.failure_count) == ("Deleting", failures)
        assert len(leftovers(devcluster, running)) == 3, "helm uninstall failed, so nothing was removed"
    failed = GatewayEvent.objects.filter(gateway_id=running.pk, reason=Reason.DELETE_FAILED).last()
    assert failed is not None and "release" in failed.message, "helm's own answer to a record it cannot read"
    reasons = passes_until_gone(running)
    assert reasons.count(Reason.DELETE_FAILED) == 3
    assert [reason for reason in reasons if reason in PURGE_STEPS] == PURGE_STEPS
    assert leftovers(devcluster, running) == []


def test_a_force_delete_ends_at_once(running: Gateway, devcluster: DevCluster, admin_user: Any) -> None:
    break_helms_record(devcluster, running)
    operations.request_deletion(Gateway.objects.filter(pk=running.pk), admin_user, "test", force=True)
    before = GatewayEvent.objects.filter(gateway_id=running.pk).count()
    reasons = passes_until_gone(running)[before:]
    assert reasons == [Reason.DELETE_FAILED, *PURGE_STEPS], "helm uninstall was tried once, then each step"
    assert leftovers(devcluster, running) == []
