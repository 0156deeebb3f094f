"""Write catalog documents as JSONL, a gzip copy, and a byte-offset index (pure, no Django).

The index is JSON: ``{"version": 1, "entries": [[offset, length, schema, package, name], ...]}``,
one entry per line of the JSONL file, in file order. ``length`` includes the newline.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from workers.fbc.parse import Meta

__all__ = ["INDEX_VERSION", "WrittenCatalog", "write_catalog"]

INDEX_VERSION = 1
GZIP_LEVEL = 6


@dataclass(frozen=True)
class WrittenCatalog:
    digest: str
    size: int
    documents: int


def write_catalog(metas: Iterable[Meta], jsonl: Path, jsonl_gz: Path, index: Path) -> WrittenCatalog:
    """Stream ``metas`` to the three files and fsync them; return the JSONL's sha256 digest."""
    hasher, offset, entries = hashlib.sha256(), 0, []
    with jsonl.open("wb") as out, gzip.GzipFile(jsonl_gz, "wb", compresslevel=GZIP_LEVEL, mtime=0) as zipped:
        for meta in metas:
            line = meta.blob + b"\n"
            out.write(line)
            zipped.write(line)
            hasher.update(line)
            entries.append([offset, len(line), meta.schema, meta.package, meta.name])
            offset += len(line)
        out.flush()
        os.fsync(out.fileno())
    with index.open("w", encoding="utf-8") as out:
        json.dump({"version": INDEX_VERSION, "entries": entries}, out, separators=(",", ":"), ensure_ascii=False)
        out.flush()
        os.fsync(out.fileno())
    _fsync(jsonl_gz)
    return WrittenCatalog(digest=f"sha256:{hasher.hexdigest()}", size=offset, documents=len(entries))


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
