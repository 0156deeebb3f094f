"""core/v1 Events as controllers and the kubelet record them, aggregated as client-go's recorder does.

An Event repeated for the same object (same reason, message, type and source) is not stored again: the
existing one gets its `count` raised and `lastTimestamp` moved, so a stuck object yields one Event.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

from devcluster.cluster import Cluster
from devcluster.errors import ApiError
from devcluster.meta import now

__all__ = ["NORMAL", "WARNING", "EventRecorder"]

NORMAL = "Normal"
WARNING = "Warning"
NODE_NAME = "devcluster-node"
EVENTS_KEY = ("", "events")


class EventRecorder:
    """Records Events through the cluster; remembers which Event each repeated occurrence belongs to."""

    def __init__(self, cluster: Cluster) -> None:
        self._cluster = cluster
        self._names: dict[tuple[str, ...], str] = {}

    def record(self, involved: dict[str, Any], type_: str, reason: str, message: str, component: str) -> None:
        """One occurrence of an Event about `involved` (a stored object) from `component`."""
        rt = self._cluster.registry.lookup("", "v1", "events")
        assert rt is not None
        meta = involved["metadata"]
        namespace = meta.get("namespace") or "default"
        key = (namespace, meta["uid"], type_, reason, message, component)
        name = self._names.get(key)
        stamp = now()
        if name is not None and self._cluster.store.peek(EVENTS_KEY, namespace, name) is not None:
            self._cluster.update_status(rt, namespace, name, lambda event: _repeat(event, stamp))
            return
        host = NODE_NAME if component == "kubelet" else None
        event = {
            "metadata": {"name": f"{meta['name']}.{time.time_ns():x}", "namespace": namespace},
            "involvedObject": {
                "kind": involved.get("kind", ""),
                "namespace": meta.get("namespace", ""),
                "name": meta["name"],
                "uid": meta["uid"],
                "apiVersion": involved.get("apiVersion", ""),
                "resourceVersion": meta.get("resourceVersion", ""),
            },
            "reason": reason,
            "message": message,
            "type": type_,
            "source": {"component": component, **({"host": host} if host else {})},
            "firstTimestamp": stamp,
            "lastTimestamp": stamp,
            "count": 1,
            "eventTime": None,
            "reportingComponent": component,
            "reportingInstance": host or "",
        }
        # The namespace may be terminating: its Events go with it, as on a real cluster.
        with contextlib.suppress(ApiError):
            self._names[key] = self._cluster.create(rt, namespace, event)["metadata"]["name"]

    def forget(self, uid: str) -> None:
        """Drop what is remembered about a deleted object's Events."""
        for key in [key for key in self._names if key[1] == uid]:
            del self._names[key]


def _repeat(event: dict[str, Any], stamp: str) -> bool:
    event["count"] = int(event.get("count") or 1) + 1
    event["lastTimestamp"] = stamp
    return True
