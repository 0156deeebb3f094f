"""Catalog content in a shared POSIX directory (``CATALOG_STORE_DIR``), every replica mounting the same one.

Layout::

    content/sha256-<hex>/all.jsonl      the catalog, one JSON document per line
    content/sha256-<hex>/all.jsonl.gz   the same bytes, gzip-compressed once at write time
    content/sha256-<hex>/index.json     byte offsets by (schema, package, name)
    staging/<random>/                   entries being written; renamed into content/ when whole
    work/<random>/                      scratch space for pulling and unpacking an image
    trash/<random>/                     entries being deleted; renamed here first, then removed

An entry appears in ``content/`` by one ``rename`` of a complete directory, and leaves it the
same way, so a reader sees a whole entry or none. An open file stays readable after removal.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from catalogs.store import scratch
from catalogs.store.entries import ENTRY_FILES, EntryStat, StoredEntry, entry_name

__all__ = ["FilesystemStore"]

READ_CHUNK = 256 * 1024
_ENTRY = re.compile(r"^sha256-[a-f0-9]{64}$")


@dataclass(frozen=True)
class FilesystemStore:
    root: Path

    def content_dir(self, digest: str) -> Path:
        """Where the entry for ``digest`` lives (whether or not it exists)."""
        return self.root / "content" / entry_name(digest)

    def has(self, digest: str) -> bool:
        entry = self.content_dir(digest)
        return all((entry / name).is_file() for name in ENTRY_FILES)

    def write_entry(self, staged: Path, digest: str) -> None:
        """Rename ``staged`` into place; if the entry already exists, refresh its age instead.

        A fresh install has a fresh age, so the GC's grace period spares it until a catalog references it.
        """
        target = self.content_dir(digest)
        target.parent.mkdir(parents=True, exist_ok=True)
        if self.has(digest):
            os.utime(target)
            return
        if target.exists():
            self.remove(digest)
        _fsync_dir(staged)
        os.rename(staged, target)
        _fsync_dir(target.parent)

    def stat(self, digest: str) -> EntryStat | None:
        entry = self.content_dir(digest)
        try:
            modified = entry.stat().st_mtime
        except FileNotFoundError:
            return None
        sizes = {}
        for name in ENTRY_FILES:
            try:
                sizes[name] = (entry / name).stat().st_size
            except FileNotFoundError:
                continue
        return EntryStat(modified=modified, sizes=sizes)

    def open(self, digest: str, name: str) -> BinaryIO | None:
        try:
            return (self.content_dir(digest) / name).open("rb")
        except FileNotFoundError:
            return None

    def open_range(self, digest: str, name: str, spans: list[tuple[int, int]]) -> Iterator[bytes] | None:
        handle = self.open(digest, name)
        return None if handle is None else _read_spans(handle, spans)

    def read(self, digest: str, name: str) -> bytes | None:
        try:
            return (self.content_dir(digest) / name).read_bytes()
        except FileNotFoundError:
            return None

    def entries(self) -> list[StoredEntry]:
        area = self.root / "content"
        if not area.is_dir():
            return []
        found = []
        for path in area.iterdir():
            if _ENTRY.match(path.name):
                try:
                    found.append(StoredEntry(digest=path.name.replace("-", ":", 1), modified=path.stat().st_mtime))
                except FileNotFoundError:
                    continue
        return sorted(found, key=lambda entry: entry.digest)

    def remove(self, digest: str) -> None:
        """One rename out of ``content/`` (atomic for readers), then delete."""
        target = self.content_dir(digest)
        if not target.exists():
            return
        doomed = Path(tempfile.mkdtemp(dir=scratch.area(self.root, "trash"))) / "entry"
        os.rename(target, doomed)
        shutil.rmtree(doomed.parent)

    def staging_dir(self) -> AbstractContextManager[Path]:
        """On the store's file system, so the finished entry is renamed into place."""
        return scratch.scratch_dir(self.root, "staging")

    def work_dir(self) -> AbstractContextManager[Path]:
        return scratch.scratch_dir(self.root, "work")

    def remove_stale(self, older_than_seconds: float, now: float | None = None) -> int:
        return scratch.remove_stale(self.root, older_than_seconds, now)


def _read_spans(handle: BinaryIO, spans: list[tuple[int, int]]) -> Iterator[bytes]:
    """Yield each (offset, length) span of the open file, at most READ_CHUNK at a time; close it at the end."""
    with handle:
        for offset, length in spans:
            handle.seek(offset)
            while length > 0:
                chunk = handle.read(min(length, READ_CHUNK))
                if not chunk:
                    return
                length -= len(chunk)
                yield chunk


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
