"""Depth, cost and argument limits of a GraphQL operation, checked on its AST before it runs (pure).

The cost bounds the values an answer can hold:

- a field costs 1, plus its sub-selection's cost times a multiplier;
- the multiplier of a root (paginated) field is its ``limit``; of a list in the documents, the
  longest such list in the catalog; of an introspection list, the longest in this schema (so many
  types, so many fields of a type, ...); of anything else, 1.

Fragments are walked where they are spread, so a fragment used many times counts every time,
yet a fragment's cost is computed once per depth (a chain of fragments spreading fragments
cannot make the walk itself exponential). The walk stops at the first limit it crosses.
"""

from __future__ import annotations

from dataclasses import dataclass

from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLEnumType,
    GraphQLError,
    GraphQLField,
    GraphQLInputObjectType,
    GraphQLInterfaceType,
    GraphQLNamedType,
    GraphQLObjectType,
    GraphQLSchema,
    GraphQLUnionType,
    InlineFragmentNode,
    OperationDefinitionNode,
    SchemaMetaFieldDef,
    SelectionSetNode,
    TypeMetaFieldDef,
    get_named_type,
    get_nullable_type,
    is_list_type,
)
from graphql.execution.values import VariableValues, get_argument_values

from catalogs.content.graphql_schema import MAX_ITEMS, PAGINATED

__all__ = ["LimitExceeded", "Limits", "check_limits", "introspection_bounds"]


@dataclass(frozen=True)
class Limits:
    max_depth: int
    max_cost: int
    max_page: int  # the largest ``limit`` a root field takes
    max_offset: int


class LimitExceeded(Exception):
    """The operation crosses a limit (``code`` names which); the message says by how much."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def check_limits(
    schema: GraphQLSchema,
    operation: OperationDefinitionNode,
    fragments: dict[str, FragmentDefinitionNode],
    variables: VariableValues,
    limits: Limits,
) -> int:
    """The operation's cost; LimitExceeded when it, its depth or a root field's limit or offset is too large."""
    root = schema.query_type
    assert root is not None
    return _Walk(schema, fragments, variables, limits).selections(operation.selection_set, root, 0)


def introspection_bounds(schema: GraphQLSchema) -> dict[tuple[str, str], int]:
    """The longest list each introspection field can answer with, in this schema."""
    types = list(schema.type_map.values())
    objects = [named for named in types if isinstance(named, (GraphQLObjectType, GraphQLInterfaceType))]
    fields = [field for named in objects for field in named.fields.values()]
    arguments = [len(field.args) for field in fields] + [len(directive.args) for directive in schema.directives]
    abstract = [named for named in types if isinstance(named, (GraphQLInterfaceType, GraphQLUnionType))]
    return {
        ("__Schema", "types"): len(types),
        ("__Schema", "directives"): len(schema.directives),
        ("__Type", "fields"): max((len(named.fields) for named in objects), default=0),
        ("__Type", "interfaces"): max((len(named.interfaces) for named in objects), default=0),
        ("__Type", "possibleTypes"): max((len(schema.get_possible_types(named)) for named in abstract), default=0),
        ("__Type", "inputFields"): max(
            (len(named.fields) for named in types if isinstance(named, GraphQLInputObjectType)), default=0
        ),
        ("__Type", "enumValues"): max(
            (len(named.values) for named in types if isinstance(named, GraphQLEnumType)), default=0
        ),
        ("__Field", "args"): max(arguments, default=0),
        ("__Directive", "args"): max(arguments, default=0),
    }


class _Walk:
    def __init__(
        self,
        schema: GraphQLSchema,
        fragments: dict[str, FragmentDefinitionNode],
        variables: VariableValues,
        limits: Limits,
    ) -> None:
        self.schema, self.fragments, self.variables, self.limits = schema, fragments, variables, limits
        self.fragment_costs: dict[tuple[str, int], int] = {}
        self.introspection: dict[tuple[str, str], int] | None = None

    def selections(self, selection_set: SelectionSetNode, parent: GraphQLNamedType, depth: int) -> int:
        total = 0
        for selection in selection_set.selections:
            if isinstance(selection, FieldNode):
                total += self.field(selection, parent, depth + 1)
            elif isinstance(selection, InlineFragmentNode):
                condition = selection.type_condition
                inner = self.schema.get_type(condition.name.value) if condition else parent
                total += self.selections(selection.selection_set, inner or parent, depth)
            elif isinstance(selection, FragmentSpreadNode):
                total += self.fragment(selection.name.value, depth)
            self.within_cost(total)
        return total

    def fragment(self, name: str, depth: int) -> int:
        key = (name, depth)
        if key not in self.fragment_costs:
            definition = self.fragments[name]
            inner = self.schema.get_type(definition.type_condition.name.value)
            assert inner is not None  # the document was validated against the schema
            self.fragment_costs[key] = self.selections(definition.selection_set, inner, depth)
        return self.fragment_costs[key]

    def field(self, node: FieldNode, parent: GraphQLNamedType, depth: int) -> int:
        if depth > self.limits.max_depth:
            raise LimitExceeded("query_too_deep", f"The query nests deeper than {self.limits.max_depth} fields.")
        definition = self.definition(node.name.value, parent)
        if definition is None:  # __typename
            return 1
        extensions = definition.extensions or {}
        multiplier = 1
        if PAGINATED in extensions:
            multiplier = self.page_size(definition, node)
        elif MAX_ITEMS in extensions:
            multiplier = extensions[MAX_ITEMS]
        elif is_list_type(get_nullable_type(definition.type)):
            if self.introspection is None:
                self.introspection = introspection_bounds(self.schema)
            multiplier = self.introspection.get((parent.name, node.name.value), 1)
        below = 0
        if node.selection_set is not None:
            below = self.selections(node.selection_set, get_named_type(definition.type), depth)
        return self.within_cost(1 + multiplier * below)

    def definition(self, name: str, parent: GraphQLNamedType) -> GraphQLField | None:
        if parent is self.schema.query_type and name == "__schema":
            return SchemaMetaFieldDef
        if parent is self.schema.query_type and name == "__type":
            return TypeMetaFieldDef
        fields = getattr(parent, "fields", {})
        return fields.get(name)

    def page_size(self, definition: GraphQLField, node: FieldNode) -> int:
        try:
            arguments = get_argument_values(definition, node, self.variables)
        except GraphQLError as exc:
            raise LimitExceeded("invalid_argument", exc.message) from None
        limit, offset = arguments["limit"], arguments["offset"]
        for argument, value, highest in (
            ("limit", limit, self.limits.max_page),
            ("offset", offset, self.limits.max_offset),
        ):
            if not 0 <= value <= highest:
                raise LimitExceeded(
                    "invalid_argument", f"{node.name.value}: {argument} must be between 0 and {highest}, not {value}."
                )
        return limit

    def within_cost(self, cost: int) -> int:
        if cost > self.limits.max_cost:
            raise LimitExceeded(
                "query_too_complex",
                f"The query could cost more than {self.limits.max_cost} (its estimate so far: {cost}); "
                "ask for fewer fields or smaller pages.",
            )
        return cost
