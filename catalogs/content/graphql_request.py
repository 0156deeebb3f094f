"""A GraphQL-over-HTTP request, read from a POST body or GET parameters, and its ETag (pure).

POST takes a JSON object ``{"query", "variables", "operationName", "extensions"}``; GET takes
``?query=&variables=&operationName=`` (``variables`` as JSON). Anything else is a ``BadRequest``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["BODY_KEYS", "ETAG_VERSION", "BadRequest", "GraphQLRequest", "etag_for_query", "from_body", "from_params"]

BODY_KEYS = ("query", "variables", "operationName", "extensions")
PARAM_KEYS = ("query", "variables", "operationName")
# Part of every ETag: raise it when the same content and query could answer differently (new inference rules).
ETAG_VERSION = 1


class BadRequest(Exception):
    """The request is malformed (``code`` says how), before any GraphQL is parsed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class GraphQLRequest:
    query: str
    variables: dict[str, Any] = field(default_factory=dict)
    operation_name: str | None = None


def from_body(body: bytes, max_query_bytes: int) -> GraphQLRequest:
    """The request a POST body holds."""
    document = _json(body, "The body")
    if not isinstance(document, dict):
        raise BadRequest("invalid_request", 'The body must be a JSON object with a "query".')
    unknown = sorted(set(document) - set(BODY_KEYS))
    if unknown:
        raise BadRequest("invalid_request", f"Unknown keys {unknown}; the body takes {list(BODY_KEYS)}.")
    if not isinstance(document.get("extensions") or {}, dict):
        raise BadRequest("invalid_request", '"extensions" must be an object.')
    return _checked(document.get("query"), document.get("variables"), document.get("operationName"), max_query_bytes)


def from_params(params: Mapping[str, list[str]], max_query_bytes: int) -> GraphQLRequest:
    """The request GET parameters (each given once) hold."""
    unknown = sorted(set(params) - set(PARAM_KEYS))
    repeated = sorted(key for key, values in params.items() if len(values) > 1)
    if unknown or repeated:
        problem = f"Unknown parameters {unknown}" if unknown else f"Repeated parameters {repeated}"
        raise BadRequest("invalid_request", f"{problem}; GET takes query, variables and operationName, once each.")
    variables = params.get("variables", [""])[0]
    return _checked(
        params.get("query", [None])[0],
        _json(variables.encode(), '"variables"') if variables else None,
        params.get("operationName", [None])[0] or None,
        max_query_bytes,
    )


def etag_for_query(digest: str, normalised_query: str, request: GraphQLRequest) -> str:
    """A strong ETag for the answer: it depends on the content, the query (as printed), its variables and operation."""
    key = json.dumps(
        [ETAG_VERSION, digest, normalised_query, request.operation_name, request.variables],
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return f'"graphql-{hashlib.sha256(key.encode()).hexdigest()[:40]}"'


def _checked(query: Any, variables: Any, operation_name: Any, max_query_bytes: int) -> GraphQLRequest:
    if not isinstance(query, str) or not query.strip():
        raise BadRequest("invalid_request", '"query" must be a non-empty string.')
    size = len(query.encode())
    if size > max_query_bytes:
        raise BadRequest("query_too_large", f"The query is {size} bytes; at most {max_query_bytes} are accepted.")
    if variables is not None and not isinstance(variables, dict):
        raise BadRequest("invalid_request", '"variables" must be an object or null.')
    if operation_name is not None and not isinstance(operation_name, str):
        raise BadRequest("invalid_request", '"operationName" must be a string or null.')
    return GraphQLRequest(query, variables or {}, operation_name)


def _json(raw: bytes, what: str) -> Any:
    try:
        return json.loads(raw)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        detail = "it nests too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise BadRequest("invalid_json", f"{what} is not valid JSON: {detail}.") from None
