"""The cost, depth and page limits of GraphQL operations, computed from the AST and the schema."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from graphql import (
    FragmentDefinitionNode,
    GraphQLObjectType,
    GraphQLSchema,
    get_introspection_query,
    get_operation_ast,
    parse,
    validate,
)
from graphql.execution.values import VariableValues, get_variable_values

from catalogs.content.graphql_limits import LimitExceeded, Limits, check_limits
from catalogs.content.graphql_schema import build_schema
from catalogs.content.graphql_shapes import Shape, observe_document

DOCUMENTS = [
    {"schema": "olm.bundle", "name": "a", "tags": ["x", "y", "z"], "related": [{"image": "i"}]},
    {"schema": "olm.bundle", "name": "b", "tags": [], "related": [{"image": "i"}, {"image": "j"}]},
    {"schema": "olm.channel", "name": "c", "grid": [[{"n": 1}, {"n": 2}], [{"n": 3}]]},
]


def schema_of(documents: list[dict[str, Any]]) -> GraphQLSchema:
    shapes: dict[str, Shape] = {}
    for document in documents:
        observe_document(shapes.setdefault(document["schema"], Shape()), document)
    return build_schema(shapes)


SCHEMA = schema_of(DOCUMENTS)
GENEROUS = Limits(max_depth=20, max_cost=10**12, max_page=1000, max_offset=10**9)


def cost(query: str, limits: Limits = GENEROUS, **variables: Any) -> int:
    document = parse(query)
    assert validate(SCHEMA, document) == []
    operation = get_operation_ast(document)
    assert operation is not None
    coerced = get_variable_values(SCHEMA, operation.variable_definitions or (), variables)
    assert isinstance(coerced, VariableValues)
    fragments = {d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)}
    return check_limits(SCHEMA, operation, fragments, coerced, limits)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("{ summary { totalSchemas } }", 2),
        ("{ summary { schemas { name field } } }", 1 + (1 + 2 * 2)),  # two schemas
        ("{ __typename }", 1),
        ("{ olmbundles { name } }", 1 + 100 * 1),
        ("{ olmbundles(limit: 7) { name tags } }", 1 + 7 * 2),
        ("{ olmbundles(limit: 2) { related { image } } }", 1 + 2 * (1 + 2 * 1)),  # the longest related list: 2
        ("{ olmchannels(limit: 1) { grid { n } } }", 1 + 1 * (1 + 4 * 1)),  # lists of lists: 2 x 2 values at most
        ("{ a: olmbundles(limit: 3) { name } b: olmbundles(limit: 4) { name } }", 4 + 5),
        ("{ ...F ...F } fragment F on Query { olmbundles(limit: 3) { name } }", 2 * 4),
        ("{ olmbundles(limit: 3) { ... on OlmBundle { name tags } } }", 1 + 3 * 2),
    ],
)
def test_cost(query: str, expected: int) -> None:
    assert cost(query) == expected


def test_introspection_lists_are_bounded_by_this_schema() -> None:
    most_fields = max(len(named.fields) for named in SCHEMA.type_map.values() if isinstance(named, GraphQLObjectType))
    assert cost('{ __type(name: "OlmBundle") { fields { name } } }') == 1 + 1 + most_fields
    assert cost("{ __schema { types { name } } }") == 1 + 1 + len(SCHEMA.type_map)


def test_variables_set_the_page() -> None:
    assert cost("query($n: Int!) { olmbundles(limit: $n) { name } }", n=9) == 10


def test_depth_counts_fields_not_fragments() -> None:
    query = "{ ...F } fragment F on Query { olmbundles { related { image } } }"
    assert cost(query, Limits(3, 10**9, 1000, 10**9)) > 0
    with pytest.raises(LimitExceeded) as raised:
        cost(query, Limits(2, 10**9, 1000, 10**9))
    assert raised.value.code == "query_too_deep"


@pytest.mark.parametrize(
    ("arguments", "limits"),
    [
        ("limit: 11", Limits(20, 10**9, 10, 100)),
        ("limit: -1", GENEROUS),
        ("offset: 101", Limits(20, 10**9, 1000, 100)),
        ("offset: -1", GENEROUS),
    ],
)
def test_pages_out_of_range(arguments: str, limits: Limits) -> None:
    with pytest.raises(LimitExceeded) as raised:
        cost(f"{{ olmbundles({arguments}) {{ name }} }}", limits)
    assert raised.value.code == "invalid_argument" and arguments.split(":")[0] in str(raised.value)


def test_fragments_spread_exponentially_are_refused_without_walking_them_all() -> None:
    chain = "".join(f"fragment F{n} on Query {{ ...F{n + 1} ...F{n + 1} }} " for n in range(60))
    query = "{ ...F0 } " + chain + "fragment F60 on Query { summary { totalSchemas } }"
    with pytest.raises(LimitExceeded) as raised:
        cost(query, Limits(20, 10**6, 1000, 10**9))
    assert raised.value.code == "query_too_complex"
    assert cost(query, Limits(20, 10**30, 1000, 10**9)) == 2 * 2**60  # counted, in one pass per fragment


def test_the_standard_introspection_query_fits_the_defaults() -> None:
    assert (
        cost(
            get_introspection_query(descriptions=True),
            Limits(settings.CATALOG_GRAPHQL_MAX_DEPTH, settings.CATALOG_GRAPHQL_MAX_COST, 1000, 10**9),
        )
        < 100_000
    )
