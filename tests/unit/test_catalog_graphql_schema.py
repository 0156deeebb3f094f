"""The GraphQL schema inferred from catalog documents: types, nullability, names, and determinism."""

from __future__ import annotations

import random
from typing import Any

import pytest
from graphql import GraphQLSchema, print_schema, validate_schema

from catalogs.content.graphql_schema import build_schema
from catalogs.content.graphql_shapes import MAX_FIELDS, MAX_NESTING, Shape, observe_document

MISSING = object()


def schema_of(documents: list[dict[str, Any]]) -> GraphQLSchema:
    shapes: dict[str, Shape] = {}
    for document in documents:
        observe_document(shapes.setdefault(document["schema"], Shape()), document)
    schema = build_schema(shapes)
    assert validate_schema(schema) == []
    return schema


def field_type(values: list[Any], field: str = "x") -> str:
    documents = [{"schema": "s", **({} if value is MISSING else {"x": value})} for value in values]
    return str(schema_of(documents).type_map["S"].fields[field].type)  # type: ignore[union-attr]


def nested(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = {"a": value}
    return value


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([1, 2], "Int!"),
        ([1, 2**31], "Float!"),
        ([-(2**31) - 1], "Float!"),
        ([1, 2**60], "JSON!"),
        ([1, 1.5], "Float!"),
        ([True, False], "Boolean!"),
        (["a", 1], "JSON!"),
        (["a", None], "String"),
        (["a", MISSING], "String"),
        ([None], "JSON"),
        ([[1], []], "[Int!]!"),
        ([[1, None]], "[Int]!"),
        ([[], []], "[JSON]!"),
        ([[[1, 2]], [[3]]], "[[Int!]!]!"),
        ([{"a.b": 1}], "JSON!"),
        ([{f"k{n}": n for n in range(MAX_FIELDS + 1)}], "JSON!"),
        ([{}], "JSON!"),
        ([{"a": 1}, {"b": "x"}], "SX!"),
    ],
)
def test_types_hold_for_every_document(values: list[Any], expected: str) -> None:
    assert field_type(values) == expected


def test_nesting_past_the_limit_is_json() -> None:
    for levels in (MAX_NESTING, MAX_NESTING + 1):
        schema = schema_of([{"schema": "s", "x": nested(levels)}])
        assert len([name for name in schema.type_map if name.startswith("SX")]) == MAX_NESTING
        deepest = schema.type_map["SX" + "A" * (MAX_NESTING - 1)]
        assert str(deepest.fields["a"].type) == ("Int!" if levels == MAX_NESTING else "JSON!")  # type: ignore[union-attr]


def test_object_fields_merge_and_are_non_null_only_when_always_there() -> None:
    schema = schema_of([{"schema": "s", "x": {"a": 1, "b": "x"}}, {"schema": "s", "x": {"a": 2, "b": None}}])
    fields = schema.type_map["SX"].fields  # type: ignore[union-attr]
    assert {name: str(f.type) for name, f in fields.items()} == {"a": "Int!", "b": "String"}


def test_properties_take_a_type_filter_and_their_value_is_json() -> None:
    properties = [{"type": "t1", "value": {"a": 1}}, {"type": "t2", "value": 2}]
    documents = [{"schema": "olm.bundle", "properties": properties}]
    field = schema_of(documents).type_map["OlmBundle"].fields["properties"]  # type: ignore[union-attr]
    assert list(field.args) == ["type"] and str(field.type) == "[OlmBundleProperties!]!"
    assert field.resolve({"properties": properties}, None, type="t2") == [properties[1]]
    item = schema_of(documents).type_map["OlmBundleProperties"]
    assert {name: str(f.type) for name, f in item.fields.items()} == {"type": "String!", "value": "JSON"}  # type: ignore[union-attr]
    not_properties = schema_of([{"schema": "s", "x": [{"type": "t", "value": 1, "extra": True}]}])
    other = not_properties.type_map["S"].fields["x"]  # type: ignore[union-attr]
    assert not other.args and str(other.type) == "[SX!]!"


@pytest.mark.parametrize(
    ("schemas", "roots", "types"),
    [
        (["olm.bundle", "olm.package"], ["olmbundles", "olmpackages"], ["OlmBundle", "OlmPackage"]),
        (["olm.bundle", "olmbundle"], ["olmbundles", "olmbundles_2"], ["OlmBundle", "Olmbundle"]),
        (["example.com/note"], ["examplecomnotes"], ["ExampleComNote"]),
        (["1st.kind"], ["_1stkinds"], ["StKind"]),
        (["query", "json"], ["jsons", "querys"], ["Json", "Query2"]),
        (["sum.mary", "summary"], ["summarys", "summarys_2"], ["SumMary", "Summary"]),
    ],
)
def test_root_fields_and_type_names(schemas: list[str], roots: list[str], types: list[str]) -> None:
    schema = schema_of([{"schema": name, "name": "n"} for name in schemas])
    assert sorted(schema.query_type.fields) == sorted([*roots, "summary"])  # type: ignore[union-attr]
    assert [schema.query_type.fields[root].extensions["catalog_schema"] for root in roots] == sorted(schemas)  # type: ignore[union-attr]
    assert all(name in schema.type_map for name in types)


def test_document_keys_that_are_no_graphql_names_are_camel_cased() -> None:
    document = {"schema": "s", "package-name": 1, "packageName": 2, "__x": 3, "1st": 4, "": 5, "ALL-CAPS": 6}
    fields = schema_of([document]).type_map["S"].fields  # type: ignore[union-attr]
    assert sorted(fields) == ["allCAPS", "field_1st", "packageName", "packageName_2", "schema", "value", "x"]
    assert fields["packageName"].resolve({"packageName": 2, "package-name": 1}, None) == 2
    assert fields["packageName_2"].resolve({"packageName": 2, "package-name": 1}, None) == 1


def test_the_same_documents_in_any_order_give_the_same_schema() -> None:
    documents = [
        {"schema": "olm.bundle", "package": "p", "name": f"b{n}", "tags": ["a"] * n, "extra": {"k": n}}
        for n in range(5)
    ] + [
        {"schema": "olm.package", "name": "p", "icon": {"data": "x", "mediatype": "image/png"}},
        {"schema": "x.y", "weird key": 1},
    ]
    printed = print_schema(schema_of(documents))
    for seed in range(3):
        shuffled = documents[:]
        random.Random(seed).shuffle(shuffled)
        assert print_schema(schema_of([dict(reversed(d.items())) for d in shuffled])) == printed
