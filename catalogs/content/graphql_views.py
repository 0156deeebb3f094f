"""GraphQL queries over a catalog's content: ``/catalogs/<name>/api/v1/graphql``. Plain Django, no DRF.

``POST`` takes a JSON body; ``GET`` takes ``?query=`` (so answers can be revalidated with a 304).
Bad input of every kind (the body, the query's size, syntax, validity against the schema, its
variables, depth and cost, a root field's limit and offset) is a 400 in the project's error
shape, whose ``fields.query`` lists GraphQL's own messages when it has any. A valid query is a
200 with the GraphQL result. The schema and the answer come from the stored entry the catalog
serves, so every replica gives the same answer, with the same strong ETag. A client that accepts gzip
always gets the answer gzipped, whatever its size, so the representation (and its ETag, suffixed
``-gzip`` as the content's are) is known before the query runs, and a 304 costs no execution.
"""

from __future__ import annotations

import gzip
import json
import logging
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.cache import get_conditional_response, patch_vary_headers
from graphql import (
    DocumentNode,
    FragmentDefinitionNode,
    GraphQLError,
    GraphQLSchema,
    OperationDefinitionNode,
    execute,
    get_operation_ast,
    parse,
    print_ast,
    validate,
)
from graphql.execution.values import VariableValues, get_variable_values

from catalogs.content.graphql_limits import LimitExceeded, Limits, check_limits
from catalogs.content.graphql_request import BadRequest, GraphQLRequest, etag_for_query, from_body, from_params
from catalogs.content.graphql_store import EntryDocuments, EntryGone, schema_for
from catalogs.content.lookup import content_lost, entry_index, find_content, store_errors_unavailable
from catalogs.content.negotiation import GZIP_SUFFIX, accepts_gzip
from controlplane.http_errors import allow_methods, error_body

__all__ = ["graphql_view"]

log = logging.getLogger(__name__)
MAX_REPORTED_ERRORS = 20


class _Invalid(Exception):
    """The request is a 400: a code, a message, and GraphQL's messages if it gave any."""

    def __init__(self, code: str, message: str, details: list[str] | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.details = code, message, details or []


def _bad_request(problem: _Invalid) -> JsonResponse:
    fields = {"query": problem.details} if problem.details else None
    return JsonResponse(error_body(400, problem.code, problem.message, fields), status=400)


@allow_methods("GET", "POST")
@store_errors_unavailable
def graphql_view(request: HttpRequest, name: str) -> HttpResponse:
    """Run one GraphQL query against the catalog's current content."""
    found = find_content(name)
    if isinstance(found, HttpResponse):
        return found
    try:
        wanted = _read(request)
        document = _parse(wanted.query)
    except _Invalid as problem:
        return _bad_request(problem)
    gzipped = accepts_gzip(request.META.get("HTTP_ACCEPT_ENCODING", ""))
    etag = etag_for_query(found.digest, print_ast(document), wanted)
    if gzipped:
        etag = f'{etag[:-1]}{GZIP_SUFFIX}"'
    decided = get_conditional_response(request, etag=etag, response=None)
    if decided is not None:
        return _validated(decided, etag)
    index = entry_index(found)
    if isinstance(index, HttpResponse):
        return index
    try:
        schema = schema_for(found.store, found.digest)
        result = _run(schema, document, wanted, EntryDocuments(found.store, found.digest, index))
    except _Invalid as problem:
        return _bad_request(problem)
    except EntryGone:
        return content_lost(found, "A reader found the served content missing")
    body = json.dumps(result, ensure_ascii=False, separators=(",", ":")).encode()
    response = HttpResponse(
        gzip.compress(body, compresslevel=6, mtime=0) if gzipped else body, content_type="application/json"
    )
    if gzipped:
        response["Content-Encoding"] = "gzip"
    return _validated(response, etag)


def _validated(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    patch_vary_headers(response, ("Accept-Encoding",))
    return response


def _read(request: HttpRequest) -> GraphQLRequest:
    limit = settings.CATALOG_GRAPHQL_MAX_QUERY_BYTES
    try:
        if request.method == "GET":
            return from_params(dict(request.GET.lists()), limit)
        return from_body(_body(request), limit)
    except BadRequest as exc:
        raise _Invalid(exc.code, str(exc)) from None


def _body(request: HttpRequest) -> bytes:
    """The POST body, refused unread when it says it is too large, and never read past the limit."""
    limit = settings.CATALOG_GRAPHQL_MAX_BODY_BYTES
    too_large = _Invalid("request_too_large", f"The body is larger than {limit} bytes.")
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        raise _Invalid("invalid_request", "Content-Length is not a number.") from None
    if declared > limit:
        raise too_large
    body = request.read(limit + 1)
    if len(body) > limit:
        raise too_large
    return body


def _parse(query: str) -> DocumentNode:
    try:
        return parse(query)
    except GraphQLError as exc:
        raise _Invalid("invalid_graphql", "The query is not valid GraphQL.", [_describe(exc)]) from None


def _run(
    schema: GraphQLSchema, document: DocumentNode, wanted: GraphQLRequest, source: EntryDocuments
) -> dict[str, Any]:
    errors = validate(schema, document, max_errors=MAX_REPORTED_ERRORS)
    if errors:
        raise _Invalid(
            "invalid_graphql", "The query does not match this catalog's schema.", [_describe(error) for error in errors]
        )
    operation = _operation(document, wanted.operation_name)
    variables = get_variable_values(
        schema, operation.variable_definitions or (), wanted.variables, max_errors=MAX_REPORTED_ERRORS
    )
    if not isinstance(variables, VariableValues):
        raise _Invalid("invalid_variables", "The variables do not fit the query.", [_describe(e) for e in variables])
    fragments = {d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)}
    try:
        check_limits(schema, operation, fragments, variables, _limits())
    except LimitExceeded as exc:
        raise _Invalid(exc.code, str(exc)) from None
    result = execute(
        schema, document, context_value=source, variable_values=wanted.variables, operation_name=wanted.operation_name
    )
    for error in result.errors or ():
        _raise_original(error)
    return result.formatted


def _operation(document: DocumentNode, operation_name: str | None) -> OperationDefinitionNode:
    operation = get_operation_ast(document, operation_name)
    if operation is None:
        named = [d.name.value for d in document.definitions if isinstance(d, OperationDefinitionNode) and d.name]
        problem = f"no operation is named {operation_name!r}" if operation_name else "name one in operationName"
        raise _Invalid("invalid_graphql", f"Which operation to run is unclear: {problem} (the query has {named}).")
    return operation


def _raise_original(error: GraphQLError) -> None:
    """An error a resolver raised is not the client's fault: the store's are 503s, anything else a 500."""
    original = error.original_error
    if original is not None and not isinstance(original, GraphQLError):
        raise original


def _limits() -> Limits:
    return Limits(
        max_depth=settings.CATALOG_GRAPHQL_MAX_DEPTH,
        max_cost=settings.CATALOG_GRAPHQL_MAX_COST,
        max_page=settings.CATALOG_GRAPHQL_MAX_PAGE,
        max_offset=settings.CATALOG_GRAPHQL_MAX_OFFSET,
    )


def _describe(error: GraphQLError) -> str:
    where = ", ".join(f"line {loc.line}, column {loc.column}" for loc in error.locations or ())
    return f"{error.message} ({where})" if where else error.message
