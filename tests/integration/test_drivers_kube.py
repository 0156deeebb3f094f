"""KubeClient against devcluster: typed operations, idempotent applies, typed failures."""

from __future__ import annotations

import base64
import time
from collections.abc import Iterator

import pytest

from tests.fixtures.devcluster import DevCluster, start_devcluster
from tests.helpers import closed_port_kubeconfig, kubeconfig_at
from tests.listeners import Answer, listening
from tests.waiting import wait_until
from workers.drivers import errors
from workers.drivers import kube as kube_module
from workers.drivers.kube import KubeClient

pytestmark = pytest.mark.integration

LABELS = {"app.kubernetes.io/managed-by": "controlplane", "tenant": "acme"}
EDIT = {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "edit"}
VIEW = {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "view"}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevCluster]:
    with start_devcluster(tmp_path_factory.mktemp("drivers-kube")) as running:
        yield running


@pytest.fixture
def kube(cluster: DevCluster) -> Iterator[KubeClient]:
    with KubeClient(cluster.kubeconfig.read_text()) as client:
        yield client
    cluster.clear_faults()


@pytest.fixture
def namespace(cluster: DevCluster) -> Iterator[str]:
    name = cluster.create_namespace("kube")
    yield name
    cluster.delete_namespace(name)


def test_version_and_discovery(kube: KubeClient) -> None:
    version = kube.version()
    assert version["gitVersion"].startswith("v1.") and "/" in version["platform"]
    assert {"v1", "apps/v1", "rbac.authorization.k8s.io/v1"} <= kube.served_api_versions()


def test_ensure_namespace_creates_then_merges_labels(kube: KubeClient) -> None:
    name = f"kube-ns-{time.monotonic_ns() % 10**8}"
    assert not kube.namespace_exists(name)
    assert kube.get_namespace(name) is None
    kube.ensure_namespace(name, {"tenant": "acme"})
    kube.ensure_namespace(name, {"tier": "gold"})
    labels = kube.get_namespace(name)["metadata"]["labels"]
    assert labels["tenant"] == "acme" and labels["tier"] == "gold"
    assert kube.namespace_exists(name)
    kube.delete_namespace(name)
    kube.delete_namespace(name)
    # Namespaces are finalized asynchronously, as in Kubernetes.
    wait_until(lambda: not kube.namespace_exists(name), "the namespace to be finalized", 10, 0.05)


def test_apply_secret_is_idempotent_and_exact(kube: KubeClient, namespace: str) -> None:
    kube.apply_secret(namespace, "creds", {"user": "admin", "password": "first-pass"}, LABELS)
    kube.apply_secret(namespace, "creds", {"password": "second-pass"}, LABELS)
    kube.apply_secret(namespace, "creds", {"password": "second-pass"}, LABELS)
    (secret,) = kube.list_objects("v1", "secrets", namespace, "tenant=acme")
    assert secret["kind"] == "Secret" and secret["type"] == "Opaque"
    assert {key: base64.b64decode(value).decode() for key, value in secret["data"].items()} == {
        "password": "second-pass",
    }
    assert secret["metadata"]["labels"] == LABELS


def test_apply_configmap_is_idempotent(kube: KubeClient, namespace: str) -> None:
    for _ in range(2):
        kube.apply_configmap(namespace, "settings", {"a": "1"}, LABELS)
    kube.apply_configmap(namespace, "settings", {"b": "2"}, {"tenant": "acme"})
    (configmap,) = kube.list_objects("v1", "configmaps", namespace, "tenant=acme")
    assert configmap["data"] == {"b": "2"}
    assert configmap["metadata"]["labels"] == {"tenant": "acme"}


def test_apply_rolebinding_recreates_on_role_change(kube: KubeClient, namespace: str) -> None:
    subjects = [{"kind": "ServiceAccount", "name": "deployer", "namespace": namespace}]
    kube.apply_rolebinding(namespace, "deployer", EDIT, subjects, LABELS)
    kube.apply_rolebinding(namespace, "deployer", EDIT, subjects, LABELS)
    kube.apply_rolebinding(namespace, "deployer", VIEW, subjects, LABELS)
    (binding,) = kube.list_objects("rbac.authorization.k8s.io/v1", "rolebindings", namespace)
    assert binding["roleRef"] == VIEW and binding["subjects"] == subjects


def test_delete_ignores_missing_objects(kube: KubeClient, namespace: str) -> None:
    kube.apply_configmap(namespace, "gone", {}, {})
    kube.delete("ConfigMap", namespace, "gone")
    kube.delete("ConfigMap", namespace, "gone")
    kube.delete("Secret", namespace, "never-existed")
    assert kube.list_objects("v1", "configmaps", namespace, "tenant") == []


def test_list_objects_pages_and_custom_resources(
    kube: KubeClient, cluster: DevCluster, namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(kube_module, "LIST_PAGE_SIZE", 2)
    for index in range(5):
        kube.apply_configmap(namespace, f"page-{index}", {}, {"paged": "yes"})
    kube.apply_configmap(namespace, "unpaged", {}, {"paged": "no"})
    cluster.clear_requests()
    names = [item["metadata"]["name"] for item in kube.list_objects("v1", "configmaps", namespace, "paged=yes")]
    assert names == [f"page-{index}" for index in range(5)]
    lists = [r for r in cluster.requests() if r["path"] == f"/api/v1/namespaces/{namespace}/configmaps"]
    assert [("limit=2" in r["query"], "continue=" in r["query"], r["status"]) for r in lists] == [
        (True, False, 200),
        (True, True, 200),
        (True, True, 200),
    ]
    assert kube.list_objects("gateway.networking.k8s.io/v1", "httproutes", namespace) == []


def test_metadata_lists_page_and_carry_no_data(
    kube: KubeClient, cluster: DevCluster, namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(kube_module, "LIST_PAGE_SIZE", 2)
    for index in range(3):
        kube.apply_secret(namespace, f"meta-{index}", {"password": f"pass-{index}"}, {"meta": "yes"})
    heads = kube.list_metadata("v1", "secrets", namespace, "meta=yes")
    full = kube.list_objects("v1", "secrets", namespace, "meta=yes")
    assert [head["metadata"] for head in heads] == [obj["metadata"] for obj in full]
    assert all(set(head) == {"metadata"} for head in heads), "no data, type or kind of the object"
    (page, *_) = [
        r
        for r in cluster.requests()
        if r["path"] == f"/api/v1/namespaces/{namespace}/secrets" and "PartialObjectMetadataList" in r["accept"]
    ]
    assert "limit=2" in page["query"]
    assert kube.get_object("v1", "secrets", namespace, "meta-1")["data"] == full[1]["data"]
    assert kube.get_object("v1", "secrets", namespace, "absent") is None


def test_a_metadata_watch_sends_each_change_as_metadata(kube: KubeClient, namespace: str) -> None:
    kube.apply_secret(namespace, "watched", {"password": "first"}, {"meta": "watch"})
    _, version = kube.list_with_version("v1", "secrets", "meta=watch", metadata_only=True)
    kube.apply_secret(namespace, "watched", {"password": "second"}, {"meta": "watch"})
    event = next(
        e
        for e in kube.watch(
            "v1", "secrets", version, label_selector="meta=watch", timeout_seconds=5, metadata_only=True
        )
        if e["type"] != "BOOKMARK"
    )
    assert event["type"] == "MODIFIED"
    assert event["object"]["kind"] == "PartialObjectMetadata" and "data" not in event["object"]
    assert event["object"]["metadata"]["name"] == "watched"
    assert event["object"]["metadata"]["namespace"] == namespace


def test_deployment_status(kube: KubeClient, cluster: DevCluster, namespace: str) -> None:
    assert kube.get_deployment_status(namespace, "web") is None
    cluster.call(
        "POST",
        f"/apis/apps/v1/namespaces/{namespace}/deployments",
        {
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {"name": "web"},
            "spec": {
                "replicas": 2,
                "selector": {"matchLabels": {"app": "web"}},
                "template": {
                    "metadata": {"labels": {"app": "web"}},
                    "spec": {"containers": [{"name": "web", "image": "nginx"}]},
                },
            },
        },
    )
    status = wait_until(
        lambda: (s := kube.get_deployment_status(namespace, "web")).ready and s, "the Deployment", 10, 0.1
    )
    assert (status.replicas, status.available_replicas) == (2, 2)
    assert status.conditions.get("Available") == "True"


def test_dead_port_is_cluster_unreachable_and_fails_closed(cluster: DevCluster) -> None:
    with KubeClient(closed_port_kubeconfig(cluster.kubeconfig.read_text())) as dead:
        with pytest.raises(errors.ClusterUnreachable):
            dead.namespace_exists("default")
        with pytest.raises(errors.ClusterUnreachable):
            dead.version()


def test_a_server_that_hangs_up_is_tried_once_per_request(cluster: DevCluster) -> None:
    kubeconfig = cluster.kubeconfig.read_text()
    with listening(Answer.HANG_UP) as server, KubeClient(kubeconfig_at(kubeconfig, server.url)) as dead:
        with pytest.raises(errors.ClusterUnreachable):
            dead.namespace_exists("default")
        with pytest.raises(errors.ClusterUnreachable):
            dead.version()
    assert server.count == 2


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        (500, errors.ServerError),
        (503, errors.ServerError),
        (403, errors.Unauthorized),
        (409, errors.Conflict),
        (422, errors.InvalidRequest),
    ],
)
def test_injected_faults_become_typed_errors(
    kube: KubeClient, cluster: DevCluster, namespace: str, status: int, expected: type
) -> None:
    cluster.add_fault(path_regex=f"/namespaces/{namespace}/secrets", status=status)
    with pytest.raises(errors.DriverError) as raised:
        kube.apply_secret(namespace, "s", {"k": "fault-secret-value"}, {})
    assert type(raised.value) is expected and raised.value.status == status
    assert "fault-secret-value" not in str(raised.value)


def test_injected_fault_on_namespace_lookup_is_not_false(kube: KubeClient, cluster: DevCluster) -> None:
    cluster.add_fault(path_regex="^/api/v1/namespaces/default$", status=500)
    with pytest.raises(errors.ServerError):
        kube.namespace_exists("default")
