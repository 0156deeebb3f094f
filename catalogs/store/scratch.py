"""Local scratch directories for writers (staging, work, trash), and removal of those crashed writers left."""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["AREAS", "area", "remove_stale", "scratch_dir"]

AREAS = ("staging", "work", "trash")


def area(root: Path, name: str) -> Path:
    path = root / name
    path.mkdir(parents=True, exist_ok=True)
    return path


@contextmanager
def scratch_dir(root: Path, name: str) -> Iterator[Path]:
    """A fresh directory under ``root/name``; removed on exit (if still there)."""
    path = Path(tempfile.mkdtemp(dir=area(root, name)))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def remove_stale(root: Path, older_than_seconds: float, now: float | None = None) -> int:
    """Delete scratch directories under ``root`` last changed before the cutoff; how many went."""
    cutoff = (time.time() if now is None else now) - older_than_seconds
    removed = 0
    for name in AREAS:
        base = root / name
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
