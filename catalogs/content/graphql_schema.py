"""Build a catalog's GraphQL schema from the shapes of its documents (pure: resolvers read from the context).

Names follow catalogd's alpha endpoint where they can:

- one root field per FBC schema: its letters and digits, lowercased, plus ``s``
  (``olm.bundle`` -> ``olmbundles``), with ``limit`` (default 100) and ``offset`` arguments and,
  beyond catalogd, ``package`` and ``name`` filters, which the content index answers;
- object types are the schema in PascalCase (``OlmBundle``) and nested ones add the field name
  (``OlmBundleProperties``);
- a document key that is no GraphQL name is camelCased (``package-name`` -> ``packageName``);
- ``summary`` counts the documents and top-level fields of each schema.

An FBC properties list (``[{type, value}]``) takes a ``type`` argument and its ``value`` is JSON.
Every name is unique (a clash gets a number), and everything is built in sorted order, so the
same content gives the same schema, and the same introspection answer, in every process.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from graphql import (
    GraphQLArgument,
    GraphQLBoolean,
    GraphQLField,
    GraphQLFloat,
    GraphQLInt,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    GraphQLResolveInfo,
    GraphQLScalarType,
    GraphQLSchema,
    GraphQLString,
    value_from_ast_untyped,
)

from catalogs.content.graphql_shapes import Shape, is_graphql_name

__all__ = ["DEFAULT_LIMIT", "MAX_ITEMS", "PAGINATED", "DocumentSource", "build_schema", "root_field_name"]

DEFAULT_LIMIT = 100
PAGINATED = "catalog_schema"  # the extensions key that marks a root field (its value: the FBC schema)
MAX_ITEMS = "max_items"  # the extensions key of a list field: the most values any document holds there
INT32 = (-(2**31), 2**31 - 1)
EXACT_IN_DOUBLE = 2**53
RESERVED_TYPES = frozenset(
    {"Query", "String", "Int", "Float", "Boolean", "ID", "JSON", "CatalogSummary", "SchemaSummary"}
)
_WORDS = re.compile(r"[^0-9A-Za-z]+")


class DocumentSource(Protocol):
    """Where root fields get their documents (the request's stored entry and its index)."""

    def documents(
        self, schema: str, package: str | None, name: str | None, offset: int, limit: int
    ) -> list[dict[str, Any]]:
        """The documents of ``schema`` matching the filters, in catalog order, paginated."""


JSON = GraphQLScalarType(
    "JSON",
    description="Any JSON value, passed through as it is in the catalog.",
    serialize=lambda value: value,
    parse_value=lambda value: value,
    parse_literal=lambda node, variables=None: value_from_ast_untyped(node, variables),
)


def root_field_name(schema: str) -> str:
    """catalogd's name for a schema's root field; ``_`` first when it would start with a digit."""
    name = re.sub(r"[^0-9A-Za-z]", "", schema).lower() + "s"
    return "_" + name if name[0].isdigit() else name


def build_schema(shapes: Mapping[str, Shape]) -> GraphQLSchema:
    """The schema for documents whose shapes, by FBC schema, are ``shapes``."""
    types = _Names(RESERVED_TYPES)
    roots = _Names({"summary"})
    fields: dict[str, GraphQLField] = {}
    summaries = []
    for schema in sorted(shapes):
        shape = shapes[schema]
        field_name = roots.claim(root_field_name(schema), "_")
        item = _object_type(types.claim(_pascal(schema) or "Schema"), shape, types, rename=True)
        fields[field_name] = GraphQLField(
            GraphQLNonNull(GraphQLList(GraphQLNonNull(item))),
            args={
                "limit": GraphQLArgument(
                    GraphQLNonNull(GraphQLInt),
                    default_value=DEFAULT_LIMIT,
                    description="How many documents to return at most.",
                ),
                "offset": GraphQLArgument(
                    GraphQLNonNull(GraphQLInt), default_value=0, description="How many matches to skip."
                ),
                "package": GraphQLArgument(GraphQLString, description="Only documents of this package."),
                "name": GraphQLArgument(GraphQLString, description="Only documents with this name."),
            },
            resolve=_documents_of(schema),
            description=f"The {schema!r} documents, in catalog order.",
            extensions={PAGINATED: schema},
        )
        summaries.append(
            {"name": schema, "field": field_name, "totalObjects": shape.objects, "totalFields": len(shape.fields)}
        )
    summary = GraphQLObjectType(
        "CatalogSummary",
        {
            "totalSchemas": GraphQLField(GraphQLNonNull(GraphQLInt)),
            "schemas": GraphQLField(
                GraphQLNonNull(GraphQLList(GraphQLNonNull(_SCHEMA_SUMMARY))), extensions={MAX_ITEMS: len(summaries)}
            ),
        },
    )
    fields["summary"] = GraphQLField(
        GraphQLNonNull(summary),
        resolve=lambda _source, _info: {"totalSchemas": len(summaries), "schemas": summaries},
        description="The schemas in this catalog, with their document and field counts.",
    )
    return GraphQLSchema(query=GraphQLObjectType("Query", fields))


def _documents_of(schema: str) -> Callable[..., list[dict[str, Any]]]:
    def resolve(
        _source: object,
        info: GraphQLResolveInfo,
        limit: int,
        offset: int,
        package: str | None = None,
        name: str | None = None,
    ) -> list[dict[str, Any]]:
        source: DocumentSource = info.context
        return source.documents(schema, package, name, offset, limit)

    return resolve


_SCHEMA_SUMMARY = GraphQLObjectType(
    "SchemaSummary",
    {
        "name": GraphQLField(GraphQLNonNull(GraphQLString), description="The FBC schema."),
        "field": GraphQLField(GraphQLNonNull(GraphQLString), description="Its root field."),
        "totalObjects": GraphQLField(GraphQLNonNull(GraphQLInt), description="Its documents."),
        "totalFields": GraphQLField(GraphQLNonNull(GraphQLInt), description="Its distinct top-level keys."),
    },
)


class _Names:
    """Hands out unique names: a taken one gets the first free number appended."""

    def __init__(self, taken: frozenset[str] | set[str]) -> None:
        self.taken = set(taken)

    def claim(self, wanted: str, separator: str = "") -> str:
        name, number = wanted, 1
        while name in self.taken:
            number += 1
            name = f"{wanted}{separator}{number}"
        self.taken.add(name)
        return name


def _pascal(text: str) -> str:
    words = [word for word in _WORDS.split(text) if word]
    name = "".join(word[0].upper() + word[1:] for word in words).lstrip("0123456789")
    return name[:1].upper() + name[1:]


def _camel(key: str) -> str:
    """A GraphQL field name for a document key that is none (catalogd's convention, roughly)."""
    words = [word for word in _WORDS.split(key) if word]
    if not words:
        return "value"
    first = words[0].lower() if words[0].isupper() else words[0][0].lower() + words[0][1:]
    name = first + "".join(word[0].upper() + word[1:] for word in words[1:])
    return name if name[0].isalpha() else "field_" + name


def _field_names(keys: list[str], rename: bool) -> dict[str, str]:
    """Field name by key: GraphQL names as they are, then (documents only) the others renamed."""
    names = _Names(set())
    chosen = {key: names.claim(key) for key in sorted(keys) if is_graphql_name(key)}
    if rename:
        chosen.update({key: names.claim(_camel(key), "_") for key in sorted(keys) if not is_graphql_name(key)})
    return chosen


def _object_type(name: str, shape: Shape, types: _Names, *, rename: bool = False) -> GraphQLObjectType:
    fields: dict[str, GraphQLField] = {}
    for key, field_name in _field_names(list(shape.fields), rename).items():
        child = shape.fields[key]
        output = _output_type(child, f"{name}{_pascal(key) or 'Value'}", types)
        if shape.required(key):
            output = GraphQLNonNull(output)
        bound = _items_bound(child)
        extensions = None if bound is None else {MAX_ITEMS: bound}
        if _is_properties(child):
            fields[field_name] = GraphQLField(
                output,
                args={"type": GraphQLArgument(GraphQLString, description="Only properties of this type.")},
                resolve=_properties_of(key),
                extensions=extensions,
            )
        else:
            fields[field_name] = GraphQLField(output, resolve=_value_of(key), extensions=extensions)
    return GraphQLObjectType(name, fields)


def _items_bound(shape: Shape) -> int | None:
    """For a list place: the most leaf values a document holds there (lists of lists multiply); else None."""
    bound = None
    while shape.kinds - {"null"} == {"list"} and shape.items is not None:
        bound = (bound or 1) * shape.longest
        shape = shape.items
    return bound


def _value_of(key: str) -> Callable[..., Any]:
    return lambda source, _info: source.get(key)


def _properties_of(key: str) -> Callable[..., Any]:
    def resolve(source: dict[str, Any], _info: GraphQLResolveInfo, type: str | None = None) -> Any:
        properties = source.get(key)
        if type is None or properties is None:
            return properties
        return [item for item in properties if item.get("type") == type]

    return resolve


def _output_type(shape: Shape, name: str, types: _Names) -> GraphQLOutputType:
    kinds = shape.kinds - {"null"}
    if shape.too_deep or shape.mapping:
        return JSON
    if kinds == {"bool"}:
        return GraphQLBoolean
    if kinds == {"string"}:
        return GraphQLString
    if kinds == {"int"} and INT32[0] <= shape.lowest and shape.highest <= INT32[1]:
        return GraphQLInt
    if kinds and kinds <= {"int", "float"}:
        exact = "int" not in kinds or max(-shape.lowest, shape.highest) <= EXACT_IN_DOUBLE
        return GraphQLFloat if exact else JSON
    if kinds == {"list"} and shape.items is not None:
        if _is_properties(shape):
            return GraphQLList(GraphQLNonNull(_property_type(name, types)))
        items = shape.items
        if not items.kinds:
            return GraphQLList(JSON)  # only empty lists seen
        item = _output_type(items, name, types)
        return GraphQLList(item if items.nullable else GraphQLNonNull(item))
    if kinds == {"object"} and shape.fields:
        return _object_type(types.claim(name), shape, types)
    return JSON


def _is_properties(shape: Shape) -> bool:
    """An FBC properties list: every item an object with a string ``type`` and (maybe) a ``value``, nothing else."""
    items = shape.items
    return (
        shape.kinds - {"null"} == {"list"}
        and items is not None
        and items.kinds == {"object"}
        and not items.mapping
        and not items.too_deep
        and set(items.fields) == {"type", "value"}
        and items.required("type")
        and items.fields["type"].kinds == {"string"}
    )


def _property_type(name: str, types: _Names) -> GraphQLObjectType:
    return GraphQLObjectType(
        types.claim(name),
        {
            "type": GraphQLField(GraphQLNonNull(GraphQLString), resolve=_value_of("type")),
            "value": GraphQLField(JSON, resolve=_value_of("value"), description="The property's value, as JSON."),
        },
    )
