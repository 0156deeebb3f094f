"""A bounded memo for pure computations whose input is named by a small key (an object's resourceVersion).

The fleet resync judges every gateway of a cluster on each pass over it. Most of what it computes (a Helm
record decoded, the drift of a release's objects) depends only on objects that have not changed since the last
resync, and Kubernetes names each object version by its resourceVersion. A memo keyed by those versions turns
the repeat work into a lookup. It keeps the newest ``size`` results; it is per process and safe across threads.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["Memo"]

V = TypeVar("V")


class Memo(Generic[V]):
    """The newest ``size`` results by key, the least recently used dropped first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable | None, compute: Callable[[], V]) -> V:
        """The remembered result for ``key``, else ``compute()``'s, remembered; a None key is never remembered."""
        if key is None:
            return compute()
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        value = compute()
        with self._lock:
            self._items[key] = value
            if len(self._items) > self.size:
                self._items.popitem(last=False)
        return value

    def resize(self, size: int) -> None:
        """Keep at most ``size`` results from now on (the oldest dropped at once if there are more)."""
        with self._lock:
            self.size = size
            while len(self._items) > size:
                self._items.popitem(last=False)

    def peek(self, key: Hashable | None) -> V | None:
        """The remembered result for ``key``, or None; computes nothing."""
        if key is None:
            return None
        with self._lock:
            return self._items.get(key)

    def __len__(self) -> int:
        return len(self._items)
