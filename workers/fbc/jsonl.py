"""Write catalog documents as JSONL, a gzip copy, and a byte-offset index (pure, no Django).

The index is JSON: ``{"version": 1, "entries": [[offset, length, schema, package, name], ...]}``,
one entry per line of the JSONL file, in file order. ``length`` includes the newline.

Lines are gathered into chunks of about a MiB; each chunk is written, hashed, and handed to the
gzip writer, which deflates it in a thread while the next chunk is parsed.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from workers.fbc.parallel_gzip import CHUNK_BYTES, ParallelGzipWriter
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
    with jsonl.open("wb") as out, jsonl_gz.open("wb") as packed_file:
        with ParallelGzipWriter(packed_file, GZIP_LEVEL) as packed:
            lines: list[bytes] = []
            chunk_start = 0
            for meta in metas:
                line = meta.blob + b"\n"
                lines.append(line)
                entries.append([offset, len(line), meta.schema, meta.package, meta.name])
                offset += len(line)
                if offset - chunk_start >= CHUNK_BYTES:
                    _emit(b"".join(lines), out, hasher, packed)
                    lines, chunk_start = [], offset
            _emit(b"".join(lines), out, hasher, packed)
        _sync(out)
        _sync(packed_file)
    encoded = json.dumps({"version": INDEX_VERSION, "entries": entries}, separators=(",", ":"), ensure_ascii=False)
    with index.open("wb") as out:
        out.write(encoded.encode())
        _sync(out)
    return WrittenCatalog(digest=f"sha256:{hasher.hexdigest()}", size=offset, documents=len(entries))


def _emit(chunk: bytes, out: BinaryIO, hasher: hashlib._Hash, packed: ParallelGzipWriter) -> None:
    out.write(chunk)
    hasher.update(chunk)
    packed.write(chunk)


def _sync(handle: BinaryIO) -> None:
    handle.flush()
    os.fsync(handle.fileno())
