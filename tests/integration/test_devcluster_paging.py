"""Chunked lists (limit/continue) from one consistent snapshot, expired and invalid tokens, watch bookmarks."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
from kubernetes import client, config
from kubernetes.client.rest import ApiException

from tests.fixtures.devcluster import DevCluster, start_devcluster
from tests.waiting import wait_until

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def quick_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevCluster]:
    """A devcluster whose continue tokens expire after 1s and whose idle watches get bookmarks every 0.2s."""
    extra = ("--continue-window", "1", "--bookmark-interval", "0.2")
    with start_devcluster(tmp_path_factory.mktemp("devcluster-quick"), extra_args=extra) as cluster:
        yield cluster


def _get(cluster: DevCluster, path: str, **query: Any) -> tuple[int, dict[str, Any]]:
    url = f"{cluster.url}{path}?{urlencode(query)}" if query else cluster.url + path
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def _create(cluster: DevCluster, ns: str, name: str, labels: dict[str, str] | None = None) -> dict[str, Any]:
    body = {"metadata": {"name": name, "labels": labels or {}}, "data": {"v": name}}
    return cluster.call("POST", f"/api/v1/namespaces/{ns}/configmaps", body)


def _change(cluster: DevCluster, ns: str, name: str) -> None:
    """Replace a config map's data with {"v": "changed"}."""
    path = f"/api/v1/namespaces/{ns}/configmaps/{name}"
    cluster.call("PUT", path, {**cluster.call("GET", path), "data": {"v": "changed"}})


def _pages(cluster: DevCluster, path: str, **query: Any) -> list[dict[str, Any]]:
    """Every chunk of a list, following continue tokens."""
    pages = []
    while True:
        status, page = _get(cluster, path, **query)
        assert status == 200, page
        pages.append(page)
        token = page["metadata"].get("continue")
        if not token:
            return pages
        query["continue"] = token


def _names(page: dict[str, Any]) -> list[str]:
    return [item["metadata"]["name"] for item in page["items"]]


def test_limit_yields_pages_that_cover_the_list_exactly_once(devcluster: DevCluster, devcluster_namespace: str) -> None:
    ns = devcluster_namespace
    for name in ("g", "c", "a", "f", "b", "e", "d"):
        _create(devcluster, ns, name)
    pages = _pages(devcluster, f"/api/v1/namespaces/{ns}/configmaps", limit=3)
    assert [_names(page) for page in pages] == [["a", "b", "c"], ["d", "e", "f"], ["g"]]
    assert [page["metadata"].get("remainingItemCount") for page in pages] == [4, 1, None]
    assert [bool(page["metadata"].get("continue")) for page in pages] == [True, True, False]
    assert len({page["metadata"]["resourceVersion"] for page in pages}) == 1
    _, whole = _get(devcluster, f"/api/v1/namespaces/{ns}/configmaps")
    assert _names(whole) == ["a", "b", "c", "d", "e", "f", "g"]
    assert "continue" not in whole["metadata"] and "remainingItemCount" not in whole["metadata"]
    _, unlimited = _get(devcluster, f"/api/v1/namespaces/{ns}/configmaps", limit=0)
    assert _names(unlimited) == _names(whole)


def test_cluster_wide_pages_are_ordered_by_namespace_then_name(devcluster: DevCluster) -> None:
    first, second = devcluster.create_namespace("pa"), devcluster.create_namespace("pb")
    try:
        for ns in (second, first):
            for name in ("y", "x"):
                _create(devcluster, ns, name, {"paging-order": first})
        pages = _pages(devcluster, "/api/v1/configmaps", limit=3, labelSelector=f"paging-order={first}")
        keys = [(i["metadata"]["namespace"], i["metadata"]["name"]) for page in pages for i in page["items"]]
        assert keys == [(first, "x"), (first, "y"), (second, "x"), (second, "y")]
        assert [len(page["items"]) for page in pages] == [3, 1]
    finally:
        devcluster.delete_namespace(first)
        devcluster.delete_namespace(second)


def test_later_pages_show_the_first_page_snapshot(devcluster: DevCluster, devcluster_namespace: str) -> None:
    ns = devcluster_namespace
    path = f"/api/v1/namespaces/{ns}/configmaps"
    for name in ("a", "b", "c", "d"):
        _create(devcluster, ns, name)
    _, first = _get(devcluster, path, limit=2)
    assert _names(first) == ["a", "b"]
    _create(devcluster, ns, "bb")
    _create(devcluster, ns, "e")
    _change(devcluster, ns, "c")
    devcluster.call("DELETE", f"{path}/d")
    _, second = _get(devcluster, path, limit=2, **{"continue": first["metadata"]["continue"]})
    assert _names(second) == ["c", "d"]
    assert [item["data"] for item in second["items"]] == [{"v": "c"}, {"v": "d"}]
    assert second["metadata"]["resourceVersion"] == first["metadata"]["resourceVersion"]
    assert "continue" not in second["metadata"]
    _, fresh = _get(devcluster, path)
    assert _names(fresh) == ["a", "b", "bb", "c", "e"]
    assert int(fresh["metadata"]["resourceVersion"]) > int(first["metadata"]["resourceVersion"])


def test_selectors_filter_before_paging(devcluster: DevCluster, devcluster_namespace: str) -> None:
    ns = devcluster_namespace
    for index in range(8):
        _create(devcluster, ns, f"s{index}", {"owner": "helm" if index % 2 else "other"})
    path = f"/api/v1/namespaces/{ns}/configmaps"
    pages = _pages(devcluster, path, limit=2, labelSelector="owner=helm")
    assert [_names(page) for page in pages] == [["s1", "s3"], ["s5", "s7"]]
    assert all("remainingItemCount" not in page["metadata"] for page in pages)
    pages = _pages(devcluster, path, limit=3, labelSelector="owner=helm", fieldSelector="metadata.name!=s3")
    assert [_names(page) for page in pages] == [["s1", "s5", "s7"]]
    pages = _pages(devcluster, path, limit=3, fieldSelector="metadata.name!=s0")
    assert [_names(page) for page in pages] == [["s1", "s2", "s3"], ["s4", "s5", "s6"], ["s7"]]


def test_compacted_continue_token_is_410_expired(devcluster: DevCluster, devcluster_namespace: str) -> None:
    ns = devcluster_namespace
    for name in ("a", "b"):
        _create(devcluster, ns, name)
    path = f"/api/v1/namespaces/{ns}/configmaps"
    _, first = _get(devcluster, path, limit=1)
    devcluster.call("POST", "/_devcluster/compact")
    status, body = _get(devcluster, path, limit=1, **{"continue": first["metadata"]["continue"]})
    assert (status, body["kind"], body["reason"], body["code"]) == (410, "Status", "Expired", 410)
    assert body["message"].startswith("The provided continue parameter is too old to display a consistent list")


def test_continue_token_expires_after_the_window(quick_cluster: DevCluster) -> None:
    ns = quick_cluster.create_namespace("window")
    for name in ("a", "b", "c"):
        _create(quick_cluster, ns, name)
    path = f"/api/v1/namespaces/{ns}/configmaps"
    _, first = _get(quick_cluster, path, limit=1)
    _, second = _get(quick_cluster, path, limit=1, **{"continue": first["metadata"]["continue"]})
    assert _names(second) == ["b"]
    token = second["metadata"]["continue"]
    status, body = wait_until(
        lambda: (got := _get(quick_cluster, path, limit=1, **{"continue": token}))[0] != 200 and got,
        "the continue token to expire",
        timeout=10,
        interval=0.1,
    )
    assert (status, body["reason"]) == (410, "Expired")


@pytest.mark.parametrize(
    "token",
    ["garbage!", "bm90IGpzb24", "eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ", "eyJ2IjoidjAiLCJydiI6MSwic3RhcnQiOiJhXHUwMDAwIn0"],
    ids=["not-base64", "not-json", "no-rv", "wrong-version"],
)
def test_malformed_continue_token_is_400(devcluster: DevCluster, token: str) -> None:
    status, body = _get(devcluster, "/api/v1/namespaces/default/configmaps", limit=1, **{"continue": token})
    assert (status, body["reason"]) == (400, "BadRequest")
    assert body["message"].startswith("continue key is not valid")


def test_invalid_list_options_are_400(devcluster: DevCluster, devcluster_namespace: str) -> None:
    ns = devcluster_namespace
    for name in ("a", "b"):
        _create(devcluster, ns, name)
    path = f"/api/v1/namespaces/{ns}/configmaps"
    _, first = _get(devcluster, path, limit=1)
    status, body = _get(devcluster, path, resourceVersion="5", **{"continue": first["metadata"]["continue"]})
    assert (status, body["message"]) == (400, "specifying resource version is not allowed when using continue")
    status, body = _get(devcluster, path, limit="ten")
    assert (status, body["reason"]) == (400, "BadRequest")


def test_python_client_pages_with_limit_and_continue(devcluster: DevCluster, devcluster_namespace: str) -> None:
    ns = devcluster_namespace
    for index in range(5):
        _create(devcluster, ns, f"py{index}", {"paged": "yes"})
    api_client = config.new_client_from_config(config_file=str(devcluster.kubeconfig))
    core = client.CoreV1Api(api_client)
    try:
        first = core.list_namespaced_config_map(ns, limit=2)
        assert ([i.metadata.name for i in first.items], first.metadata.remaining_item_count) == (["py0", "py1"], 3)
        names, token, versions = [], first.metadata._continue, {first.metadata.resource_version}
        while token:
            page = core.list_namespaced_config_map(ns, limit=2, _continue=token)
            names += [i.metadata.name for i in page.items]
            token, versions = page.metadata._continue, versions | {page.metadata.resource_version}
        assert names == ["py2", "py3", "py4"] and len(versions) == 1
        selected = core.list_config_map_for_all_namespaces(label_selector="paged=yes", limit=4)
        assert [i.metadata.name for i in selected.items] == ["py0", "py1", "py2", "py3"]
        devcluster.call("POST", "/_devcluster/compact")
        with pytest.raises(ApiException) as expired:
            core.list_config_map_for_all_namespaces(
                label_selector="paged=yes", limit=4, _continue=selected.metadata._continue
            )
        assert expired.value.status == 410 and json.loads(expired.value.body)["reason"] == "Expired"
    finally:
        api_client.close()


def _watch_events(cluster: DevCluster, path: str, count: int, **query: Any) -> list[dict[str, Any]]:
    query = {"watch": "1", "timeoutSeconds": "10", **query}
    with urllib.request.urlopen(f"{cluster.url}{path}?{urlencode(query)}", timeout=15) as response:
        return [json.loads(response.readline()) for _ in range(count)]


def test_watch_from_a_paged_list_resumes_without_gaps_or_duplicates(
    devcluster: DevCluster, devcluster_namespace: str
) -> None:
    ns = devcluster_namespace
    path = f"/api/v1/namespaces/{ns}/configmaps"
    for name in ("a", "b", "c"):
        _create(devcluster, ns, name)
    pages = [_get(devcluster, path, limit=2)[1]]
    _create(devcluster, ns, "d")
    _change(devcluster, ns, "a")
    pages.append(_get(devcluster, path, limit=2, **{"continue": pages[0]["metadata"]["continue"]})[1])
    assert [name for page in pages for name in _names(page)] == ["a", "b", "c"]
    events = _watch_events(devcluster, path, 2, resourceVersion=pages[0]["metadata"]["resourceVersion"])
    assert [(e["type"], e["object"]["metadata"]["name"]) for e in events] == [("ADDED", "d"), ("MODIFIED", "a")]
    assert events[1]["object"]["data"] == {"v": "changed"}


def test_bookmarks_arrive_while_other_resources_change_and_only_move_forward(quick_cluster: DevCluster) -> None:
    ns = quick_cluster.create_namespace("bookmarks")
    start = _get(quick_cluster, f"/api/v1/namespaces/{ns}/configmaps")[1]["metadata"]["resourceVersion"]
    quick_cluster.call("POST", f"/api/v1/namespaces/{ns}/secrets", {"metadata": {"name": "first"}})
    stop = threading.Event()

    def churn() -> None:
        index = 0
        while not stop.is_set():
            quick_cluster.call("POST", f"/api/v1/namespaces/{ns}/secrets", {"metadata": {"name": f"s{index}"}})
            index += 1
            stop.wait(0.02)  # a write every 20 ms until told to stop

    writer = threading.Thread(target=churn)
    writer.start()
    try:
        path = f"/api/v1/namespaces/{ns}/configmaps"
        events = _watch_events(quick_cluster, path, 3, resourceVersion=start, allowWatchBookmarks="true")
    finally:
        stop.set()
        writer.join()
    assert [event["type"] for event in events] == ["BOOKMARK"] * 3
    versions = [int(event["object"]["metadata"]["resourceVersion"]) for event in events]
    assert versions == sorted(versions) and versions[0] > int(start)
    assert events[0]["object"]["kind"] == "ConfigMap"

    _create(quick_cluster, ns, "after-bookmark")
    resumed = _watch_events(quick_cluster, path, 1, resourceVersion=str(versions[-1]), allowWatchBookmarks="true")
    assert [(e["type"], e["object"]["metadata"]["name"]) for e in resumed] == [("ADDED", "after-bookmark")]


def test_idle_watch_bookmark_follows_the_last_event(quick_cluster: DevCluster) -> None:
    ns = quick_cluster.create_namespace("idle")
    created = _create(quick_cluster, ns, "only")
    query = {"sendInitialEvents": "true", "allowWatchBookmarks": "true", "resourceVersionMatch": "NotOlderThan"}
    events = _watch_events(quick_cluster, f"/api/v1/namespaces/{ns}/configmaps", 3, **query)
    assert [e["type"] for e in events] == ["ADDED", "BOOKMARK", "BOOKMARK"]
    initial_end, idle = (int(e["object"]["metadata"]["resourceVersion"]) for e in events[1:])
    assert int(created["metadata"]["resourceVersion"]) <= initial_end <= idle
    assert "annotations" not in events[2]["object"]["metadata"]
