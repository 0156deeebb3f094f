"""Chunked lists: immutable per-resource snapshots, pages cut from them, and continue tokens.

Stored objects are never mutated once saved, so a snapshot only holds references. A snapshot that backs
an outstanding continue token is retained for `window` seconds from its first page (the simulated etcd
compaction interval); after that, or after `compact()`, the token is answered with 410 Expired.
"""

from __future__ import annotations

import base64
import binascii
import json
import threading
import time
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from devcluster import errors
from devcluster.errors import ApiError

Ident = tuple[str, str]  # (namespace, name)
StorageKey = tuple[str, str]

TOKEN_VERSION = "meta.k8s.io/v1"
DEFAULT_CONTINUE_WINDOW_SECONDS = 300.0
MAX_RETAINED_SNAPSHOTS = 1000
EXPIRED_MESSAGE = (
    "The provided continue parameter is too old to display a consistent list result. "
    "You can start a new list without the continue parameter."
)


@dataclass(frozen=True)
class Page:
    """The objects of one list chunk; `last` is where the next chunk starts after (None: list complete)."""

    items: list[dict[str, Any]]
    last: Ident | None = None
    remaining: int | None = None


@dataclass(frozen=True)
class Snapshot:
    """One resource's objects at one resourceVersion, sorted by (namespace, name). Never mutated."""

    idents: list[Ident]
    objects: list[dict[str, Any]]

    @classmethod
    def of(cls, bucket: dict[Ident, dict[str, Any]]) -> Snapshot:
        idents = sorted(bucket)
        return cls(idents, [bucket[ident] for ident in idents])

    def page(
        self,
        namespace: str | None,
        matches: Callable[[dict[str, Any]], bool] | None,
        after: Ident | None = None,
        limit: int = 0,
    ) -> Page:
        """Up to `limit` (0: all) matching objects after `after`; `remaining` is only known without `matches`."""
        lo, hi = self._range(namespace)
        if after is not None:
            lo = max(lo, bisect_left(self.idents, (after[0], after[1] + "\x00"), lo, hi))
        items: list[dict[str, Any]] = []
        last = lo
        for index in range(lo, hi):
            obj = self.objects[index]
            if matches is not None and not matches(obj):
                continue
            if limit and len(items) == limit:
                return Page(items, self.idents[last], None if matches else hi - index)
            items.append(obj)
            last = index
        return Page(items)

    def _range(self, namespace: str | None) -> tuple[int, int]:
        if namespace is None:
            return 0, len(self.idents)
        return bisect_left(self.idents, (namespace,)), bisect_left(self.idents, (namespace + "\x00",))


def encode_continue(rv: int, last: Ident) -> str:
    """An opaque token: the snapshot's resourceVersion and the key the next chunk starts after."""
    namespace, name = last
    start = f"{namespace}/{name}" if namespace else name
    payload = json.dumps({"v": TOKEN_VERSION, "rv": rv, "start": start + "\x00"}, separators=(",", ":"))
    return base64.urlsafe_b64encode(payload.encode()).decode().rstrip("=")


def decode_continue(token: str) -> tuple[int, Ident]:
    """(resourceVersion, last ident) from a token; 400 BadRequest when it is not one of ours."""
    try:
        data = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
    except (ValueError, binascii.Error) as exc:
        raise errors.bad_request(f"continue key is not valid: {exc}") from None
    if not isinstance(data, dict) or data.get("v") != TOKEN_VERSION:
        raise errors.bad_request(f"continue key is not valid: incorrect encoded version (want {TOKEN_VERSION})")
    rv, start = data.get("rv"), data.get("start")
    if not isinstance(rv, int) or rv <= 0 or not isinstance(start, str) or not start.endswith("\x00"):
        raise errors.bad_request("continue key is not valid: the encoded resourceVersion or start key is invalid")
    namespace, _, name = start[:-1].rpartition("/")
    return rv, (namespace, name)


class RetainedSnapshots:
    """Snapshots behind outstanding continue tokens, by (storage key, resourceVersion), expiring by age."""

    def __init__(self, window: float = DEFAULT_CONTINUE_WINDOW_SECONDS) -> None:
        self.window = window
        self._lock = threading.Lock()
        self._retained: dict[tuple[StorageKey, int], tuple[float, Snapshot]] = {}

    def retain(self, key: StorageKey, rv: int, snapshot: Snapshot) -> None:
        """Keep `snapshot` for continuing lists at `rv`; its age counts from the first retain."""
        with self._lock:
            self._expire()
            self._retained.setdefault((key, rv), (time.monotonic(), snapshot))
            while len(self._retained) > MAX_RETAINED_SNAPSHOTS:
                del self._retained[next(iter(self._retained))]

    def get(self, key: StorageKey, rv: int) -> Snapshot:
        """The retained snapshot; 410 Expired when it is too old or was compacted away."""
        with self._lock:
            self._expire()
            entry = self._retained.get((key, rv))
        if entry is None:
            raise ApiError(410, "Expired", EXPIRED_MESSAGE)
        return entry[1]

    def compact(self) -> int:
        """Drop every retained snapshot (outstanding continue tokens expire); returns how many."""
        with self._lock:
            dropped = len(self._retained)
            self._retained.clear()
            return dropped

    def _expire(self) -> None:
        cutoff = time.monotonic() - self.window
        while self._retained:
            oldest = next(iter(self._retained))
            if self._retained[oldest][0] >= cutoff:
                return
            del self._retained[oldest]
