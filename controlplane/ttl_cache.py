"""A small in-process map whose entries expire: for answers worth reusing for a few seconds."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["TtlCache"]

V = TypeVar("V")


class TtlCache(Generic[V]):
    """At most ``max_entries`` values, each until its expiry time; the oldest go first. Thread-safe.

    Callers pass the time (``now``) in, so they choose the clock, and tests can move it.
    """

    def __init__(self, max_entries: int) -> None:
        self.max_entries = max_entries
        self._entries: OrderedDict[Hashable, tuple[float, V]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, now: float) -> V | None:
        entry = self._entries.get(key)
        return entry[1] if entry is not None and entry[0] > now else None

    def put(self, key: Hashable, value: V, expires: float) -> None:
        with self._lock:
            self._entries[key] = (expires, value)
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)

    def discard(self, key: Hashable) -> None:
        with self._lock:
            self._entries.pop(key, None)

    def discard_if(self, stale: Callable[[V], bool]) -> None:
        with self._lock:
            for key in [key for key, (_, value) in self._entries.items() if stale(value)]:
                del self._entries[key]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
