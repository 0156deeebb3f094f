"""Query a stored catalog's byte-offset index (written by ``workers.fbc.jsonl``).

Entries are immutable (named by digest), so a parsed index is cached per process by store and digest.
A query intersects the filters through per-key maps and returns byte spans in file order,
with adjacent lines merged, so a response is a few seeks and reads, never a scan of the file.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from catalogs.store import INDEX_FILE, ContentStore

__all__ = ["FILTER_KEYS", "UNREADABLE", "CatalogIndex", "load_index", "parse_index"]

FILTER_KEYS = ("schema", "package", "name")
SUPPORTED_VERSION = 1
CACHED_INDEXES = 8
# What parse_index raises for an index that is not one (truncated, corrupt or of another version).
UNREADABLE = (ValueError, KeyError, TypeError, IndexError, AttributeError)


@dataclass(frozen=True)
class CatalogIndex:
    offsets: tuple[int, ...]
    lengths: tuple[int, ...]
    keys: tuple[tuple[str, str, str], ...]
    by_key: tuple[dict[str, tuple[int, ...]], ...]

    @classmethod
    def from_entries(cls, entries: list[list]) -> CatalogIndex:
        maps: tuple[defaultdict[str, list[int]], ...] = tuple(defaultdict(list) for _ in FILTER_KEYS)
        for number, entry in enumerate(entries):
            for position, value in enumerate(entry[2:5]):
                maps[position][value].append(number)
        return cls(
            offsets=tuple(entry[0] for entry in entries),
            lengths=tuple(entry[1] for entry in entries),
            keys=tuple((entry[2], entry[3], entry[4]) for entry in entries),
            by_key=tuple({value: tuple(numbers) for value, numbers in m.items()} for m in maps),
        )

    @property
    def extent(self) -> int:
        """The bytes of the catalog the index covers: where its last line ends (0 for an empty catalog)."""
        return self.offsets[-1] + self.lengths[-1] if self.offsets else 0

    def lines(self, filters: dict[str, str]) -> Sequence[int]:
        """Numbers of the lines matching every filter, in file order: the rarest filter's, checked against the rest."""
        wanted = [(FILTER_KEYS.index(key), value) for key, value in filters.items()]
        if not wanted:
            return range(len(self.offsets))
        rarest = min(wanted, key=lambda filter_: len(self.by_key[filter_[0]].get(filter_[1], ())))
        numbers = self.by_key[rarest[0]].get(rarest[1], ())
        others = [filter_ for filter_ in wanted if filter_ != rarest]
        if not others:
            return numbers
        return [n for n in numbers if all(self.keys[n][position] == value for position, value in others)]

    def spans(self, filters: dict[str, str]) -> list[tuple[int, int]]:
        """(offset, length) spans of the matching lines, in file order, adjacent lines merged."""
        return self.spans_for(self.lines(filters))

    def spans_for(self, numbers: Iterable[int]) -> list[tuple[int, int]]:
        """(offset, length) spans of the given lines (in file order), adjacent lines merged."""
        spans: list[tuple[int, int]] = []
        for number in numbers:
            offset, length = self.offsets[number], self.lengths[number]
            if spans and spans[-1][0] + spans[-1][1] == offset:
                spans[-1] = (spans[-1][0], spans[-1][1] + length)
            else:
                spans.append((offset, length))
        return spans


class _Absent(Exception):
    """The entry has no index (lru_cache does not cache exceptions, so absence is looked up again)."""


def load_index(store: ContentStore, digest: str) -> CatalogIndex | None:
    """The entry's parsed index; None when the entry is absent."""
    try:
        return _cached_index(store, digest)
    except _Absent:
        return None


@lru_cache(maxsize=CACHED_INDEXES)
def _cached_index(store: ContentStore, digest: str) -> CatalogIndex:
    raw = store.read(digest, INDEX_FILE)
    if raw is None:
        raise _Absent(digest)
    return parse_index(raw)


def parse_index(raw: bytes) -> CatalogIndex:
    document = json.loads(raw)
    if document.get("version") != SUPPORTED_VERSION:
        raise ValueError("unsupported catalog index version")
    return CatalogIndex.from_entries(document["entries"])
