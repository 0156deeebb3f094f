"""A stored entry as GraphQL sees it: its schema (built once per process and digest) and its documents.

Entries are immutable and named by digest, so a schema built from one holds for as long as the
entry does, on every replica alike; the cache is bounded (``CATALOG_GRAPHQL_SCHEMAS_CACHED``).
Documents are read through the content index: only the lines a page needs are fetched.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from graphql import GraphQLSchema

from catalogs.content.graphql_schema import build_schema
from catalogs.content.graphql_shapes import Shape, observe_document
from catalogs.content.index import CatalogIndex
from catalogs.store import ALL_FILE, ContentStore

__all__ = ["EntryDocuments", "EntryGone", "schema_for"]

READ_CHUNK = 1024 * 1024
_cache: OrderedDict[str, GraphQLSchema] = OrderedDict()
_lock = threading.Lock()


class EntryGone(Exception):
    """The entry was removed while it was being read (a content switch collected it)."""


def schema_for(store: ContentStore, digest: str) -> GraphQLSchema:
    """The GraphQL schema of the entry ``digest``, from the cache or built from its documents."""
    with _lock:
        if digest in _cache:
            _cache.move_to_end(digest)
            return _cache[digest]
    schema = build_schema(_shapes(store, digest))
    with _lock:
        _cache[digest] = schema
        while len(_cache) > settings.CATALOG_GRAPHQL_SCHEMAS_CACHED:
            _cache.popitem(last=False)
    return schema


def _shapes(store: ContentStore, digest: str) -> dict[str, Shape]:
    handle = store.open(digest, ALL_FILE)
    if handle is None:
        raise EntryGone(digest)
    shapes: dict[str, Shape] = {}
    rest = b""
    with handle:
        while chunk := handle.read(READ_CHUNK):
            lines = (rest + chunk).split(b"\n")
            rest = lines.pop()
            for line in lines:
                _observe_line(shapes, line)
    _observe_line(shapes, rest)
    return shapes


def _observe_line(shapes: dict[str, Shape], line: bytes) -> None:
    if line:
        document = json.loads(line)
        observe_document(shapes.setdefault(document["schema"], Shape()), document)


@dataclass(frozen=True)
class EntryDocuments:
    """The ``DocumentSource`` of one request: the entry its catalog serves, through its index."""

    store: ContentStore
    digest: str
    index: CatalogIndex

    def documents(
        self, schema: str, package: str | None, name: str | None, offset: int, limit: int
    ) -> list[dict[str, Any]]:
        filters = {
            "schema": schema,
            **({} if package is None else {"package": package}),
            **({} if name is None else {"name": name}),
        }
        page = self.index.lines(filters)[offset : offset + limit]
        if not page:
            return []
        body = self.store.open_range(self.digest, ALL_FILE, self.index.spans_for(page))
        if body is None:
            raise EntryGone(self.digest)
        return [json.loads(line) for line in b"".join(body).splitlines()]
