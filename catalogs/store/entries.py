"""What every content store holds and answers: entry names, the files of an entry, and the ``ContentStore`` protocol.

The stores (``catalogs.store.fs``, ``catalogs.store.s3``) implement it; ``catalogs.store`` picks one.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Protocol

__all__ = [
    "ALL_FILE",
    "ALL_GZ_FILE",
    "ENTRY_FILES",
    "INDEX_FILE",
    "ContentStore",
    "EntryStat",
    "StoreError",
    "StoredEntry",
    "entry_name",
]

ALL_FILE = "all.jsonl"
ALL_GZ_FILE = "all.jsonl.gz"
INDEX_FILE = "index.json"
ENTRY_FILES = (ALL_FILE, ALL_GZ_FILE, INDEX_FILE)
_HEX = frozenset("0123456789abcdef")


class StoreError(Exception):
    """The store could not be reached or answered with an error (not: the entry is absent)."""


@dataclass(frozen=True)
class StoredEntry:
    digest: str
    modified: float


@dataclass(frozen=True)
class EntryStat:
    """An entry's age (its last write, as a POSIX time) and the sizes of its objects by name."""

    modified: float
    sizes: Mapping[str, int]


def entry_name(digest: str) -> str:
    """``sha256-<hex>``: the entry's directory or key name; ValueError for anything but a sha256 digest."""
    algorithm, _, hexdigest = digest.partition(":")
    if algorithm != "sha256" or len(hexdigest) != 64 or not set(hexdigest) <= _HEX:
        raise ValueError(f"not a sha256 content digest: {digest[:80]!r}")
    return f"sha256-{hexdigest}"


class ContentStore(Protocol):
    """Where entries live. An entry is whole or absent to every reader; absent reads return None."""

    def has(self, digest: str) -> bool:
        """Whether the complete entry is stored (every object, at its recorded size)."""

    def write_entry(self, staged: Path, digest: str) -> None:
        """Store the files in ``staged`` (``ENTRY_FILES``) as ``digest``'s entry, atomically; renews its age."""

    def stat(self, digest: str) -> EntryStat | None:
        """The entry's age and object sizes, or None when it is absent."""

    def open(self, digest: str, name: str) -> BinaryIO | None:
        """One object of the entry, whole, for streaming; None when absent."""

    def open_range(self, digest: str, name: str, spans: list[tuple[int, int]]) -> Iterator[bytes] | None:
        """The bytes of each (offset, length) span of one object, in order; None when absent.

        The first read happens before this returns, so an entry removed meanwhile is None, not a failed stream.
        """

    def read(self, digest: str, name: str) -> bytes | None:
        """One (small) object of the entry; None when absent."""

    def entries(self) -> list[StoredEntry]:
        """Every complete entry, sorted by digest."""

    def remove(self, digest: str) -> None:
        """Remove the entry: absent to readers at once, its objects deleted after."""

    def staging_dir(self) -> AbstractContextManager[Path]:
        """A fresh local directory to write an entry's files into; removed on exit."""

    def work_dir(self) -> AbstractContextManager[Path]:
        """Scratch space for one pull and unpack; removed on exit."""

    def remove_stale(self, older_than_seconds: float, now: float | None = None) -> int:
        """Delete what crashed writers left behind (scratch, partial entries) older than the cutoff."""
