"""Watches: sendInitialEvents with the initial-events-end bookmark, and resuming from a resourceVersion."""

from __future__ import annotations

import json
import threading
import urllib.request
from typing import Any

import pytest
from kubernetes import client, config, watch

from tests.fixtures.devcluster import DevCluster

pytestmark = pytest.mark.integration


def _stream(url: str) -> Any:
    return urllib.request.urlopen(url, timeout=10)


def test_send_initial_events_ends_with_bookmark(devcluster: DevCluster, devcluster_namespace: str) -> None:
    ns = devcluster_namespace
    for name in ("a", "b"):
        devcluster.call("POST", f"/api/v1/namespaces/{ns}/configmaps", {"metadata": {"name": name}})
    query = "watch=1&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=5"
    with _stream(f"{devcluster.url}/api/v1/namespaces/{ns}/configmaps?{query}") as response:
        assert response.headers["Transfer-Encoding"] == "chunked"
        events = [json.loads(response.readline()) for _ in range(3)]
        assert [(e["type"], e["object"]["metadata"].get("name")) for e in events] == [
            ("ADDED", "a"),
            ("ADDED", "b"),
            ("BOOKMARK", None),
        ]
        bookmark = events[2]["object"]
        assert bookmark["metadata"]["annotations"] == {"k8s.io/initial-events-end": "true"}

        devcluster.call("DELETE", f"/api/v1/namespaces/{ns}/configmaps/a")
        deleted = json.loads(response.readline())
        assert (deleted["type"], deleted["object"]["metadata"]["name"]) == ("DELETED", "a")
        assert int(deleted["object"]["metadata"]["resourceVersion"]) > int(bookmark["metadata"]["resourceVersion"])


def test_python_client_watch_from_resource_version(devcluster: DevCluster, devcluster_namespace: str) -> None:
    api_client = config.new_client_from_config(config_file=str(devcluster.kubeconfig))
    core = client.CoreV1Api(api_client)
    ns = devcluster_namespace
    start = core.list_namespaced_config_map(ns).metadata.resource_version

    def change() -> None:
        core.create_namespaced_config_map(ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="w")))
        core.patch_namespaced_config_map("w", ns, {"data": {"k": "v"}})

    writer = threading.Thread(target=change)
    writer.start()
    seen = []
    for event in watch.Watch().stream(core.list_namespaced_config_map, ns, resource_version=start, timeout_seconds=5):
        seen.append((event["type"], event["object"].metadata.name))
        if len(seen) == 2:
            break
    writer.join()
    api_client.close()
    assert seen == [("ADDED", "w"), ("MODIFIED", "w")]
