"""The kubernetes python client against devcluster: CRUD, selectors, patches, conflicts, cascades, CRDs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from kubernetes import client, config
from kubernetes.client.rest import ApiException
from kubernetes.dynamic import DynamicClient

from tests.fixtures.devcluster import DevCluster, DevClusterError
from tests.waiting import wait_until

pytestmark = pytest.mark.integration


@pytest.fixture
def api(devcluster: DevCluster) -> Iterator[client.ApiClient]:
    api_client = config.new_client_from_config(config_file=str(devcluster.kubeconfig))
    yield api_client
    api_client.close()


def _config_map(name: str, labels: dict[str, str] | None = None, data: dict[str, str] | None = None) -> Any:
    return client.V1ConfigMap(metadata=client.V1ObjectMeta(name=name, labels=labels), data=data or {"k": "v"})


def test_create_get_list_by_label_and_delete(api: client.ApiClient, devcluster_namespace: str) -> None:
    core = client.CoreV1Api(api)
    ns = devcluster_namespace
    created = core.create_namespaced_config_map(ns, _config_map("one", {"tier": "web", "team": "a"}))
    core.create_namespaced_config_map(ns, _config_map("two", {"tier": "db", "team": "a"}))
    core.create_namespaced_config_map(ns, _config_map("three", {"tier": "web"}))
    assert created.metadata.uid and created.metadata.resource_version and created.metadata.creation_timestamp

    def names(selector: str) -> list[str]:
        return sorted(i.metadata.name for i in core.list_namespaced_config_map(ns, label_selector=selector).items)

    assert names("tier=web") == ["one", "three"]
    assert names("tier!=web") == ["two"]
    assert names("tier in (db,cache),team==a") == ["two"]
    assert names("tier notin (db)") == ["one", "three"]
    assert names("team") == ["one", "two"]
    assert names("!team") == ["three"]
    by_field = core.list_namespaced_config_map(ns, field_selector="metadata.name=two").items
    assert [i.metadata.name for i in by_field] == ["two"]

    assert core.read_namespaced_config_map("one", ns).data == {"k": "v"}
    core.delete_namespaced_config_map("one", ns, propagation_policy="Background")
    with pytest.raises(ApiException) as missing:
        core.read_namespaced_config_map("one", ns)
    assert missing.value.status == 404


def test_secret_string_data_is_merged_into_data(api: client.ApiClient, devcluster_namespace: str) -> None:
    core = client.CoreV1Api(api)
    body = client.V1Secret(metadata=client.V1ObjectMeta(name="creds"), string_data={"password": "hunter2"})
    secret = core.create_namespaced_secret(devcluster_namespace, body)
    assert secret.data == {"password": "aHVudGVyMg=="}
    assert secret.type == "Opaque"


def test_merge_patch_and_server_side_apply(api: client.ApiClient, devcluster_namespace: str) -> None:
    core = client.CoreV1Api(api)
    ns = devcluster_namespace
    core.create_namespaced_config_map(ns, _config_map("cfg", data={"a": "1", "b": "2"}))
    patched = core.patch_namespaced_config_map("cfg", ns, {"data": {"b": None, "c": "3"}})
    assert patched.data == {"a": "1", "c": "3"}

    dynamic = DynamicClient(api)
    config_maps = dynamic.resources.get(api_version="v1", kind="ConfigMap")
    applied = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "applied", "namespace": ns},
        "data": {"x": "1"},
    }
    created = config_maps.server_side_apply(body=applied, namespace=ns, field_manager="tests")
    assert created.data.x == "1"
    applied["data"] = {"y": "2"}
    updated = config_maps.server_side_apply(body=applied, namespace=ns, field_manager="tests")
    assert dict(updated.data) == {"y": "2"}, "fields dropped from the applied config are removed"


def test_conflicts_on_duplicate_create_and_stale_resource_version(
    api: client.ApiClient, devcluster_namespace: str
) -> None:
    core = client.CoreV1Api(api)
    ns = devcluster_namespace
    original = core.create_namespaced_config_map(ns, _config_map("dup"))
    with pytest.raises(ApiException) as duplicate:
        core.create_namespaced_config_map(ns, _config_map("dup"))
    assert duplicate.value.status == 409
    assert '"reason":"AlreadyExists"' in duplicate.value.body

    core.replace_namespaced_config_map("dup", ns, _config_map("dup", data={"k": "new"}))
    stale = original
    stale.data = {"k": "stale"}
    with pytest.raises(ApiException) as conflict:
        core.replace_namespaced_config_map("dup", ns, stale)
    assert conflict.value.status == 409
    assert '"reason":"Conflict"' in conflict.value.body


def test_invalid_name_and_missing_namespace(api: client.ApiClient, devcluster_namespace: str) -> None:
    core = client.CoreV1Api(api)
    with pytest.raises(ApiException) as invalid:
        core.create_namespaced_config_map(devcluster_namespace, _config_map("Not_Valid"))
    assert invalid.value.status == 422
    with pytest.raises(ApiException) as missing:
        core.create_namespaced_config_map("no-such-namespace", _config_map("x"))
    assert missing.value.status == 404


def test_namespace_delete_cascades(api: client.ApiClient, devcluster: DevCluster) -> None:
    core, apps = client.CoreV1Api(api), client.AppsV1Api(api)
    ns = devcluster.create_namespace("cascade")
    core.create_namespaced_config_map(ns, _config_map("doomed"))
    deployment = {
        "metadata": {"name": "doomed"},
        "spec": {
            "selector": {"matchLabels": {"app": "d"}},
            "template": {
                "metadata": {"labels": {"app": "d"}},
                "spec": {"containers": [{"name": "c", "image": "busybox"}]},
            },
        },
    }
    apps.create_namespaced_deployment(ns, deployment)
    core.delete_namespace(ns)

    def namespace_gone() -> bool:
        try:
            core.read_namespace(ns)
        except ApiException as exc:
            return exc.status == 404
        return False

    wait_until(namespace_gone, "the namespace to go")
    assert [c for c in core.list_config_map_for_all_namespaces().items if c.metadata.namespace == ns] == []
    assert [d for d in apps.list_deployment_for_all_namespaces().items if d.metadata.namespace == ns] == []


def test_crd_created_at_runtime_is_served(
    api: client.ApiClient, devcluster: DevCluster, devcluster_namespace: str
) -> None:
    extensions = client.ApiextensionsV1Api(api)
    ns = devcluster_namespace
    crd = {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.devcluster.io"},
        "spec": {
            "group": "example.devcluster.io",
            "scope": "Namespaced",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "shortNames": ["wdg"]},
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
    extensions.create_custom_resource_definition(crd)
    try:
        groups = {g.name: g for g in client.ApisApi(api).get_api_versions().groups}
        assert groups["example.devcluster.io"].preferred_version.version == "v1alpha1"

        widgets = DynamicClient(api).resources.get(api_version="example.devcluster.io/v1alpha1", kind="Widget")
        widget = {
            "apiVersion": "example.devcluster.io/v1alpha1",
            "kind": "Widget",
            "metadata": {"name": "w1"},
            "spec": {"size": 3},
        }
        widgets.create(body=widget, namespace=ns)
        widgets.patch(name="w1", namespace=ns, body={"spec": {"size": 4}}, content_type="application/merge-patch+json")
        assert widgets.get(name="w1", namespace=ns).spec.size == 4
        assert [w.metadata.name for w in widgets.get(namespace=ns).items] == ["w1"]
        widgets.delete(name="w1", namespace=ns)
    finally:
        extensions.delete_custom_resource_definition("widgets.example.devcluster.io")

    groups = {g.name for g in client.ApisApi(api).get_api_versions().groups}
    assert "example.devcluster.io" not in groups
    for path in (
        "/apis/example.devcluster.io/v1alpha1",
        f"/apis/example.devcluster.io/v1alpha1/namespaces/{ns}/widgets",
    ):
        with pytest.raises(DevClusterError, match="404"):
            devcluster.call("GET", path)
