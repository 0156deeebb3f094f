"""Whether a stored entry can be served: whole, with an index that reads and covers the catalog's bytes."""

from __future__ import annotations

from catalogs.content.index import UNREADABLE, parse_index
from catalogs.store import ALL_FILE, INDEX_FILE, ContentStore

__all__ = ["entry_intact"]


def entry_intact(content: ContentStore, digest: str) -> bool:
    """Every object is stored (at its recorded size, on S3), and the index parses and ends where the JSONL does.

    Reads the index afresh (never a cached parse), so a truncated or corrupt entry is not taken for a whole one.
    StoreError (the store cannot be reached) propagates: that says nothing about the entry."""
    entry = content.stat(digest)
    if entry is None or not content.has(digest):
        return False
    raw = content.read(digest, INDEX_FILE)
    if raw is None:
        return False
    try:
        return parse_index(raw).extent == entry.sizes.get(ALL_FILE)
    except UNREADABLE:
        return False
