"""Infer the shape of a catalog's documents, per FBC schema, for its GraphQL schema (pure, no I/O).

Every document of a schema is observed, so what is inferred holds for all of them:

- a place seen with one JSON kind only gets that kind: integers that fit 32 bits are ``Int``,
  other numbers ``Float`` while a double holds them exactly;
- objects whose keys are all GraphQL names (and not too many) get object types that merge
  every observation; a key present and non-null in every observed object is non-null;
- lists get the merged shape of all their items, and the length of the longest;
- anything else (mixed kinds, map-like objects such as annotations, integers no double holds,
  nesting deeper than ``MAX_NESTING``) is opaque: the ``JSON`` scalar, passed through unchanged.

A document's own keys are always fields, whatever their spelling (the schema builder renames
those that are not GraphQL names).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

__all__ = ["MAX_FIELDS", "MAX_NESTING", "Shape", "is_graphql_name", "observe", "observe_document"]

MAX_NESTING = 8  # object and list levels below a document that get their own types
MAX_FIELDS = 64  # an object with more distinct keys than this is a map
_NAME = re.compile(r"^[_A-Za-z][_0-9A-Za-z]*$")


def is_graphql_name(key: str) -> bool:
    """Whether GraphQL accepts ``key`` as a field name (``__`` names are reserved for introspection)."""
    return bool(_NAME.match(key)) and not key.startswith("__")


@dataclass
class Shape:
    """What was seen at one place of the documents."""

    kinds: set[str] = field(default_factory=set)
    objects: int = 0  # objects observed here
    fields: dict[str, Shape] = field(default_factory=dict)
    present: dict[str, int] = field(default_factory=dict)  # per key: the objects holding it, non-null
    items: Shape | None = None  # the merged items of the lists observed here
    longest: int = 0  # the most items a list observed here held
    lowest: int = 0  # the integer range observed here
    highest: int = 0
    mapping: bool = False  # an object seen with keys that are data, not names: JSON
    too_deep: bool = False

    @property
    def nullable(self) -> bool:
        return not self.kinds or "null" in self.kinds

    def required(self, key: str) -> bool:
        """Whether every object observed here holds ``key`` with a non-null value."""
        return self.present.get(key, 0) == self.objects


def observe_document(shape: Shape, document: dict[str, Any]) -> None:
    """Merge one top-level document into its schema's shape: every key is a field."""
    _merge_object(shape, document, 0)


def observe(shape: Shape, value: Any, nesting: int = 1) -> None:
    """Merge one JSON value, ``nesting`` levels below its document, into ``shape``."""
    kind = _KINDS[type(value)]
    if kind == "int":
        shape.lowest, shape.highest = (
            (min(shape.lowest, value), max(shape.highest, value)) if "int" in shape.kinds else (value, value)
        )
    shape.kinds.add(kind)
    if kind in ("object", "list") and nesting > MAX_NESTING:
        shape.too_deep = True
    elif kind == "object":
        if not shape.mapping:
            new = [key for key in value if key not in shape.fields]
            if new and (len(shape.fields) + len(new) > MAX_FIELDS or not all(map(is_graphql_name, new))):
                shape.mapping = True
                shape.fields.clear()
                shape.present.clear()
        if shape.mapping:
            shape.objects += 1
        else:
            _merge_object(shape, value, nesting)
    elif kind == "list":
        items = shape.items
        if items is None:
            items = shape.items = Shape()
        shape.longest = max(shape.longest, len(value))
        for item in value:
            observe(items, item, nesting + 1)


def _merge_object(shape: Shape, value: dict[str, Any], nesting: int) -> None:
    shape.objects += 1
    fields, present = shape.fields, shape.present
    for key, item in value.items():
        child = fields.get(key)
        if child is None:
            child = fields[key] = Shape()
        observe(child, item, nesting + 1)
        if item is not None:
            present[key] = present.get(key, 0) + 1


# json.loads makes exactly these types
_KINDS = {type(None): "null", bool: "bool", int: "int", float: "float", str: "string", list: "list", dict: "object"}
