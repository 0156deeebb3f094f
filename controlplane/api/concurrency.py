"""Optimistic concurrency: an ETag on every detail response, and If-Match checked under the row lock."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request

from controlplane.api.errors import PreconditionFailed

__all__ = ["check_if_match", "etag_for"]


def etag_for(instance: Any) -> str:
    """Changes whenever a client write changes the object (spec generation or the last update)."""
    generation = getattr(instance, "generation", 0)
    return f'"{generation}-{int(instance.updated_at.timestamp() * 1_000_000)}"'


def check_if_match(request: Request, instance: Any) -> None:
    """A missing If-Match is allowed; ``*`` matches anything; otherwise one listed tag must match."""
    header = request.headers.get("If-Match")
    if header is None:
        return
    tags = {tag.strip() for tag in header.split(",")}
    if "*" not in tags and etag_for(instance) not in tags:
        raise PreconditionFailed(f"If-Match {header} does not match the current version {etag_for(instance)}.")
