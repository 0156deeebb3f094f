"""Watch streams: initial events, the initial-events-end bookmark, then changes as they happen."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from devcluster.cluster import Cluster, present
from devcluster.errors import ApiError, bad_request
from devcluster.field_selectors import field_matcher
from devcluster.resources import ResourceType
from devcluster.selectors import label_matcher

INITIAL_EVENTS_END = "k8s.io/initial-events-end"
IDLE_BOOKMARK_SECONDS = 15.0  # default; a bookmark follows this long without any event sent


@dataclass(frozen=True)
class WatchRequest:
    """The query parameters that shape a watch."""

    namespace: str | None
    resource_version: str = ""
    label_selector: str = ""
    field_selector: str = ""
    send_initial_events: bool = False
    allow_bookmarks: bool = False
    timeout_seconds: float | None = None


def _bookmark(rt: ResourceType, rv: int, initial_events_end: bool = False) -> dict[str, Any]:
    metadata: dict[str, Any] = {"resourceVersion": str(rv)}
    if initial_events_end:
        metadata["annotations"] = {INITIAL_EVENTS_END: "true"}
    return {"type": "BOOKMARK", "object": {"kind": rt.kind, "apiVersion": rt.group_version, "metadata": metadata}}


def open_watch(
    cluster: Cluster,
    rt: ResourceType,
    request: WatchRequest,
    should_stop: Callable[[], bool],
    bookmark_interval: float = IDLE_BOOKMARK_SECONDS,
) -> Iterator[dict[str, Any]]:
    """Validate a watch request (raising ApiError before any response is sent) and return its event stream."""
    labels, fields = label_matcher(request.label_selector), field_matcher(request.field_selector, (rt.group, rt.plural))
    if request.send_initial_events and not request.allow_bookmarks:
        raise bad_request("sendInitialEvents requires allowWatchBookmarks=true")
    initial = request.send_initial_events or request.resource_version in ("", "0")
    if not initial and not request.resource_version.isdigit():
        raise bad_request(f"invalid resourceVersion {request.resource_version!r}")

    def wanted(obj: dict[str, Any]) -> bool:
        namespace = obj["metadata"].get("namespace", "")
        return (not request.namespace or namespace == request.namespace) and labels(obj) and fields(obj)

    return _stream(cluster, rt, request, should_stop, wanted, initial, bookmark_interval)


def _stream(
    cluster: Cluster,
    rt: ResourceType,
    request: WatchRequest,
    should_stop: Callable[[], bool],
    wanted: Callable[[dict[str, Any]], bool],
    initial: bool,
    bookmark_interval: float,
) -> Iterator[dict[str, Any]]:
    """Events after the starting resourceVersion, in order, each once. `cursor` is the newest change
    considered (of any resource), so bookmarks carry it and never move backwards."""
    deadline = time.monotonic() + request.timeout_seconds if request.timeout_seconds else None
    if initial:
        listing = cluster.list(rt, request.namespace, request.label_selector, request.field_selector)
        cursor = int(listing["metadata"]["resourceVersion"])
        for obj in listing["items"]:
            yield {"type": "ADDED", "object": obj}
        if request.send_initial_events:
            yield _bookmark(rt, cursor, initial_events_end=True)
    else:
        cursor = int(request.resource_version)

    last_sent = time.monotonic()
    while not should_stop() and not cluster.store.closed:
        remaining = deadline - time.monotonic() if deadline else bookmark_interval
        if remaining <= 0:
            return
        try:
            events = cluster.store.events_after(cursor)
        except ApiError as exc:
            yield {"type": "ERROR", "object": exc.status()}
            return
        for event in events:
            cursor = event.rv
            if event.key == rt.storage_key and wanted(event.obj):
                last_sent = time.monotonic()
                yield {"type": event.type, "object": present(rt, dict(event.obj))}
        if request.allow_bookmarks and time.monotonic() - last_sent >= bookmark_interval:
            last_sent = time.monotonic()
            yield _bookmark(rt, cursor)
        if not events:
            wait = min(remaining, 1.0)
            if request.allow_bookmarks:
                wait = min(wait, last_sent + bookmark_interval - time.monotonic())
            cluster.store.wait_for_change(cursor, max(wait, 0.0))
