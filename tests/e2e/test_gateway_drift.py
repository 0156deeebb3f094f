"""Drift: objects removed behind Helm's back are repaired (the watcher notices; the resync is the safety net)."""

from __future__ import annotations

import pytest
from kubernetes import client

from tests.e2e.conftest import kube_api
from tests.helpers import release_of
from tests.waiting import wait_until

pytestmark = pytest.mark.e2e


def revision(tenant, gw_id: str) -> int:
    return tenant.get(f"/api/v1/gateways/{gw_id}/").json()["status"]["release"]["revision"]


def test_deleted_workload_and_namespace_are_repaired(tenant, wait_for_phase, gateway_cluster, register) -> None:
    register(gateway_cluster, "drifty")
    body = {"name": "steady", "cluster": "drifty", "image": "r.test/gw:1", "supervisor_image": "r.test/s:1"}
    created = tenant.post("/api/v1/gateways/", json=body)
    assert created.status_code == 201, created.text
    gw_id, namespace = created.json()["id"], created.json()["namespace"]
    wait_for_phase(gw_id, "Running")
    apps, core = client.AppsV1Api(kube_api(gateway_cluster)), client.CoreV1Api(kube_api(gateway_cluster))

    apps.delete_namespaced_stateful_set(release_of(namespace), namespace)
    wait_until(lambda: apps.list_namespaced_stateful_set(namespace).items, "the StatefulSet to be recreated")
    wait_until(lambda: revision(tenant, gw_id) == 2, "the repairing upgrade to be published")
    events = tenant.get(f"/api/v1/gateways/{gw_id}/events/").json()["results"]
    assert "UpgradeSucceeded" in {e["reason"] for e in events}

    # The cluster watcher reacts within about a second, so the namespace may be back before a poll
    # sees it gone: a new uid proves it was deleted and re-created.
    old_uid = core.read_namespace(namespace).metadata.uid
    core.delete_namespace(namespace)

    def recreated() -> bool:
        current = [n for n in core.list_namespace().items if n.metadata.name == namespace]
        return bool(current) and current[0].metadata.uid != old_uid

    wait_until(recreated, "the namespace to be deleted and re-created", timeout=60)
    wait_until(lambda: apps.list_namespaced_stateful_set(namespace).items, "the release to be reinstalled", timeout=60)
    wait_until(lambda: revision(tenant, gw_id) == 1, "the reinstall to be published")
    wait_for_phase(gw_id, "Running", timeout=60)
    labels = core.read_namespace(namespace).metadata.labels
    assert labels["controlplane/gateway-id"] == gw_id
