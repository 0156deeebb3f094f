"""The catalog content store: immutable entries named by content digest, shared by every replica.

Layout under ``settings.CATALOG_STORE_DIR``::

    content/sha256-<hex>/all.jsonl      the catalog, one JSON document per line
    content/sha256-<hex>/all.jsonl.gz   the same bytes, gzip-compressed once at write time
    content/sha256-<hex>/index.json     byte offsets by (schema, package, name)
    staging/<random>/                   entries being written; renamed into content/ when whole
    work/<random>/                      scratch space for pulling and unpacking an image
    trash/<random>/                     entries being deleted; renamed here first, then removed

An entry appears in ``content/`` by one ``rename`` of a complete directory, and leaves it the
same way, so a reader sees a whole entry or none. The database decides which entry a catalog
serves; see ``catalogs.cleanup`` for the locking that keeps the two in step.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

__all__ = [
    "ALL_FILE",
    "ALL_GZ_FILE",
    "INDEX_FILE",
    "StoredEntry",
    "content_dir",
    "discard",
    "entries",
    "has",
    "install",
    "remove_stale_scratch",
    "staging_dir",
    "work_dir",
]

ALL_FILE = "all.jsonl"
ALL_GZ_FILE = "all.jsonl.gz"
INDEX_FILE = "index.json"
ENTRY_FILES = (ALL_FILE, ALL_GZ_FILE, INDEX_FILE)
_DIGEST = re.compile(r"^sha256:[a-f0-9]{64}$")
_ENTRY = re.compile(r"^sha256-[a-f0-9]{64}$")


@dataclass(frozen=True)
class StoredEntry:
    digest: str
    modified: float


def root() -> Path:
    return Path(settings.CATALOG_STORE_DIR)


def _area(name: str) -> Path:
    path = root() / name
    path.mkdir(parents=True, exist_ok=True)
    return path


def content_dir(digest: str) -> Path:
    """Where the entry for ``digest`` lives (whether or not it exists)."""
    if not _DIGEST.match(digest):
        raise ValueError(f"not a sha256 content digest: {digest[:80]!r}")
    return root() / "content" / digest.replace(":", "-")


def has(digest: str) -> bool:
    entry = content_dir(digest)
    return all((entry / name).is_file() for name in ENTRY_FILES)


@contextmanager
def staging_dir() -> Iterator[Path]:
    """A fresh directory to write an entry into; removed on exit unless ``install`` moved it."""
    path = Path(tempfile.mkdtemp(dir=_area("staging")))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@contextmanager
def work_dir() -> Iterator[Path]:
    """Scratch space on the store's file system for one pull; always removed on exit."""
    path = Path(tempfile.mkdtemp(dir=_area("work")))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def install(staged: Path, digest: str) -> None:
    """Make ``staged`` the entry for ``digest``; if the entry already exists, refresh its age instead.

    A fresh install has a fresh age, so the GC's grace period spares it until a catalog references it.
    """
    target = content_dir(digest)
    target.parent.mkdir(parents=True, exist_ok=True)
    if has(digest):
        os.utime(target)
        return
    if target.exists():
        discard(digest)
    _fsync_dir(staged)
    os.rename(staged, target)
    _fsync_dir(target.parent)


def discard(digest: str) -> None:
    """Remove an entry: one rename out of ``content/`` (atomic for readers), then delete."""
    target = content_dir(digest)
    if not target.exists():
        return
    doomed = Path(tempfile.mkdtemp(dir=_area("trash"))) / "entry"
    os.rename(target, doomed)
    shutil.rmtree(doomed.parent)


def entries() -> list[StoredEntry]:
    """Every entry in the store, with its last install time."""
    area = root() / "content"
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


def remove_stale_scratch(older_than_seconds: float, now: float | None = None) -> int:
    """Delete staging, work and trash directories left behind by crashed processes."""
    cutoff = (time.time() if now is None else now) - older_than_seconds
    removed = 0
    for area in ("staging", "work", "trash"):
        base = root() / area
        if not base.is_dir():
            continue
        for path in base.iterdir():
            try:
                if path.stat().st_mtime < cutoff:
                    shutil.rmtree(path)
                    removed += 1
            except FileNotFoundError:
                continue
    return removed


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
