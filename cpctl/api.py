"""Calls through the generated client (``controlplane_client``), with answers checked and errors raised in the
API's shape, and plain HTTP streaming for catalog content (which the OpenAPI schema does not describe)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from types import ModuleType
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx
from controlplane_client import AuthenticatedClient
from controlplane_client.types import Response

from cpctl.config import Context
from cpctl.exits import API_ERROR, NOT_FOUND, CliError, api_error

__all__ = ["Api", "as_uuid"]


def as_uuid(ref: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(ref)
    except ValueError:
        return None


class Api:
    """One context's API. ``operation`` arguments are generated modules, e.g. ``api.gateways.gateways_list``."""

    def __init__(self, context: Context, timeout: float = 60.0) -> None:
        self.url = context.url.rstrip("/")
        self.client = AuthenticatedClient(
            base_url=self.url,
            token=context.token,
            prefix="Token",
            timeout=httpx.Timeout(timeout),
        )

    def call(self, operation: ModuleType, *args: Any, expect: tuple[int, ...] = (200,), **kwargs: Any) -> Response:
        """The response of ``operation.sync_detailed``; any other status than ``expect`` raises ``ApiError``."""
        try:
            response = operation.sync_detailed(*args, client=self.client, **kwargs)
        except httpx.HTTPError as exc:
            raise CliError(f"cannot reach {self.url}: {exc}", API_ERROR) from exc
        if response.status_code not in expect:
            raise api_error(response.status_code, response.content)
        return response

    def items(self, operation: ModuleType, **filters: Any) -> Iterator[Any]:
        """Every item of a paginated list, following each page's ``next`` link (whatever its query keys)."""
        page = self.call(operation, **filters).parsed
        yield from page.results
        while page.next_:
            following = dict(parse_qsl(urlsplit(page.next_).query))
            page = self.call(operation, **{**following, **filters}).parsed
            yield from page.results

    def lookup(self, kind: str, ref: str, list_op: ModuleType, retrieve_op: ModuleType) -> Response:
        """The retrieve response of the object with id ``ref``, or else the one named ``ref`` (exit 3 if none)."""
        found = as_uuid(ref)
        if found is None:
            named = list(self.items(list_op, name=ref))
            if not named:
                raise CliError(f"no {kind} named {ref!r}", NOT_FOUND)
            if len(named) > 1:
                raise CliError(f"{len(named)} {kind}s are named {ref!r}; use an id", API_ERROR)
            found = named[0].id
        return self.call(retrieve_op, found)

    def stream_lines(self, path: str, params: dict[str, str]) -> Iterator[str]:
        """The lines of a JSON-lines answer, as they arrive."""
        headers = {"Authorization": f"Token {self.client.token}"}
        try:
            with httpx.stream("GET", self.url + path, params=params, headers=headers, timeout=60.0) as response:
                if response.status_code != 200:
                    raise api_error(response.status_code, response.read())
                yield from response.iter_lines()
        except httpx.HTTPError as exc:
            raise CliError(f"cannot reach {self.url}: {exc}", API_ERROR) from exc
