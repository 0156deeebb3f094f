"""A JSON parser that refuses bodies over the configured size with 413, and nested deeper than
``MAX_JSON_DEPTH`` with 400, instead of reading them or overflowing the stack."""

from __future__ import annotations

import io
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from controlplane.api.errors import PayloadTooLarge

__all__ = ["MAX_JSON_DEPTH", "BoundedJSONParser", "json_depth"]

MAX_JSON_DEPTH = 32


def json_depth(value: Any) -> int:
    """How deeply arrays and objects nest in ``value`` (a scalar is 0), without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth + 1)
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


class BoundedJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        body = stream.read(limit + 1) if stream is not None else b""
        if len(body) > limit:
            raise PayloadTooLarge(f"The request body is larger than {limit} bytes.")
        too_deep = ParseError(f"JSON parse error - nested deeper than {MAX_JSON_DEPTH} levels.", code="too_deep")
        try:
            data = super().parse(io.BytesIO(body), media_type, parser_context)
        except RecursionError:
            raise too_deep from None
        if json_depth(data) > MAX_JSON_DEPTH:
            raise too_deep
        return data
