"""A JSON parser that refuses bodies over the configured limit with 413 instead of reading them."""

from __future__ import annotations

import io
from typing import Any

from django.conf import settings
from rest_framework.parsers import JSONParser

from controlplane.api.errors import PayloadTooLarge

__all__ = ["BoundedJSONParser"]


class BoundedJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        body = stream.read(limit + 1) if stream is not None else b""
        if len(body) > limit:
            raise PayloadTooLarge(f"The request body is larger than {limit} bytes.")
        return super().parse(io.BytesIO(body), media_type, parser_context)
