"""In-memory object storage with a global resourceVersion counter and a bounded event history.

Stored objects are immutable once saved: readers that may change what they get receive deep copies,
while snapshots and events share the stored dicts.
"""

from __future__ import annotations

import copy
import itertools
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from devcluster.errors import gone
from devcluster.paging import Snapshot

StorageKey = tuple[str, str]  # (group, plural)


@dataclass(frozen=True)
class StoredEvent:
    """A change to one object; `obj` is a snapshot that must not be mutated."""

    rv: int
    type: str  # ADDED, MODIFIED or DELETED
    key: StorageKey
    obj: dict[str, Any]


class Store:
    """Objects by storage key, namespace and name. Hold `lock` for read-modify-write sequences."""

    def __init__(self, history_size: int = 20_000) -> None:
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        self.closed = False
        self._rv = 0
        self._objects: dict[StorageKey, dict[tuple[str, str], dict[str, Any]]] = {}
        self._history: deque[StoredEvent] = deque(maxlen=history_size)
        self._snapshots: dict[StorageKey, Snapshot] = {}

    @property
    def resource_version(self) -> int:
        with self.lock:
            return self._rv

    def get(self, key: StorageKey, namespace: str, name: str) -> dict[str, Any] | None:
        with self.lock:
            obj = self._objects.get(key, {}).get((namespace, name))
            return copy.deepcopy(obj) if obj is not None else None

    def peek(self, key: StorageKey, namespace: str, name: str) -> dict[str, Any] | None:
        """The stored object itself, shared and read-only (no copy): for controllers that only look."""
        with self.lock:
            return self._objects.get(key, {}).get((namespace, name))

    def list(
        self,
        key: StorageKey,
        namespace: str | None = None,
        matches: Callable[[dict[str, Any]], bool] | None = None,
    ) -> list[dict[str, Any]]:
        """Copies of one resource's objects (all namespaces when `namespace` is None) that `matches` accepts,
        sorted by namespace/name; objects are filtered before they are copied."""
        return copy.deepcopy(self.snapshot(key).page(namespace, matches).items)

    def snapshot(self, key: StorageKey) -> Snapshot:
        """The current objects of one resource, shared and read-only; cached until the resource changes."""
        with self.lock:
            snapshot = self._snapshots.get(key)
            if snapshot is None:
                snapshot = self._snapshots[key] = Snapshot.of(self._objects.get(key, {}))
            return snapshot

    def save(self, key: StorageKey, obj: dict[str, Any]) -> dict[str, Any]:
        """Create or replace an object, assigning it the next resourceVersion."""
        with self.lock:
            meta = obj["metadata"]
            ident = (meta.get("namespace", ""), meta["name"])
            bucket = self._objects.setdefault(key, {})
            event_type = "MODIFIED" if ident in bucket else "ADDED"
            self._rv += 1
            meta["resourceVersion"] = str(self._rv)
            bucket[ident] = copy.deepcopy(obj)
            self._snapshots.pop(key, None)
            self._record(event_type, key, bucket[ident])
            return copy.deepcopy(obj)

    def remove(self, key: StorageKey, namespace: str, name: str) -> dict[str, Any] | None:
        with self.lock:
            stored = self._objects.get(key, {}).pop((namespace, name), None)
            if stored is None:
                return None
            self._snapshots.pop(key, None)
            obj = copy.deepcopy(stored)
            self._rv += 1
            obj["metadata"]["resourceVersion"] = str(self._rv)
            self._record("DELETED", key, obj)
            return copy.deepcopy(obj)

    def events_after(self, rv: int) -> list[StoredEvent]:
        """Events newer than `rv`; 410 Gone when the history no longer reaches back that far (a restored
        store's history starts at the restored resourceVersion, as after an etcd compaction)."""
        with self.lock:
            if rv >= self._rv:
                return []
            oldest = self._history[0].rv if self._history else self._rv + 1
            if rv < oldest - 1:
                raise gone(f"too old resource version: {rv} ({oldest - 1})")
            # Every change takes the next resourceVersion: the newest `_rv - rv` events are the ones after rv.
            newest_first = itertools.islice(reversed(self._history), self._rv - rv)
            return list(newest_first)[::-1]

    def dump(self) -> dict[str, Any]:
        """Every object and the resourceVersion counter, JSON-serializable; the stored dicts are shared."""
        with self.lock:
            buckets = {key: list(bucket.values()) for key, bucket in self._objects.items()}
            rv = self._rv
        resources = [{"group": group, "plural": plural, "items": items} for (group, plural), items in buckets.items()]
        return {"resourceVersion": rv, "resources": resources}

    @classmethod
    def restore(cls, state: dict[str, Any], history_size: int = 20_000) -> Store:
        """A store holding a `dump()`'s objects; new writes continue after its resourceVersion."""
        store = cls(history_size)
        store._rv = int(state["resourceVersion"])
        for resource in state["resources"]:
            store._objects[(resource["group"], resource["plural"])] = {
                (obj["metadata"].get("namespace", ""), obj["metadata"]["name"]): obj for obj in resource["items"]
            }
        return store

    def wait_for_change(self, after_rv: int, timeout: float) -> None:
        with self.changed:
            self.changed.wait_for(lambda: self._rv > after_rv or self.closed, timeout)

    def close(self) -> None:
        """Wake every waiting watcher so it can finish; used at shutdown."""
        with self.changed:
            self.closed = True
            self.changed.notify_all()

    def _record(self, event_type: str, key: StorageKey, obj: dict[str, Any]) -> None:
        self._history.append(StoredEvent(self._rv, event_type, key, obj))
        self.changed.notify_all()
