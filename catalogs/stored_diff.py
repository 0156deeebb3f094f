"""Diff two stored catalog entries: stream each entry's JSONL once into a sketch, then compare.

The index (offsets and keys, in file order) tells where each line ends, so the JSONL is read in
large chunks and never parsed whole. Which fields changed is read afterwards from just the changed
lines of both entries (the first ``detail_limit`` of them).
"""

from __future__ import annotations

import json

from catalogs.content.index import SUPPORTED_VERSION
from catalogs.diff import CatalogDiff, DocKey, Sketch, SketchBuilder, changed_fields, compare
from catalogs.store import ALL_FILE, INDEX_FILE, ContentStore

__all__ = ["EntryMissing", "diff_entries", "sketch_entry"]

READ_CHUNK = 1024 * 1024


class EntryMissing(Exception):
    """The entry is not (or no longer) in the store."""


def sketch_entry(content: ContentStore, digest: str) -> Sketch:
    raw = content.read(digest, INDEX_FILE)
    handle = content.open(digest, ALL_FILE) if raw is not None else None
    if raw is None or handle is None:
        raise EntryMissing(digest)
    document = json.loads(raw)
    if document.get("version") != SUPPORTED_VERSION:
        raise ValueError(f"unsupported catalog index version in {digest}")
    builder, buffer, start = SketchBuilder(), memoryview(b""), 0
    with handle:
        for offset, length, schema, package, name in document["entries"]:
            end = offset - start + length
            if len(buffer) < end:  # the rest of the buffer, then as many chunks as the line needs
                parts = [bytes(buffer[offset - start :])]
                start, end = offset, length
                while sum(map(len, parts)) < length:
                    chunk = handle.read(READ_CHUNK)
                    if not chunk:
                        raise EntryMissing(f"{digest}: the content is shorter than its index")
                    parts.append(chunk)
                buffer = memoryview(b"".join(parts))
            builder.add(schema, package, name, buffer[end - length : end], offset)
    return builder.sketch


def diff_entries(content: ContentStore, old: str | None, new: str, *, detail_limit: int) -> CatalogDiff:
    """What changed from entry ``old`` (None: nothing before) to entry ``new``; EntryMissing if one is gone."""
    new_sketch = sketch_entry(content, new)
    if old is None:
        return compare(None, new_sketch)
    old_sketch = new_sketch if old == new else sketch_entry(content, old)
    diff = compare(old_sketch, new_sketch)
    changed = diff.changed_keys()[:detail_limit]
    before = _documents(content, old, old_sketch, changed)
    after = _documents(content, new, new_sketch, changed)
    return diff.with_fields({key: changed_fields(before[key], after[key]) for key in changed})


def _documents(content: ContentStore, digest: str, sketch: Sketch, keys: list[DocKey]) -> dict[DocKey, dict]:
    """The (first) document of each key, read by its span; keys are given in any order."""
    if not keys:
        return {}
    ordered = sorted(keys, key=lambda key: sketch.span(key)[0])
    chunks = content.open_range(digest, ALL_FILE, [sketch.span(key) for key in ordered])
    if chunks is None:
        raise EntryMissing(digest)
    lines = b"".join(chunks).split(b"\n")
    return {key: json.loads(line) for key, line in zip(ordered, lines, strict=False)}
