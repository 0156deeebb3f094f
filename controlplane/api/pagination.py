"""List pagination: bounded limit/offset by default, keyset (cursor) on request; large counts are estimated.

- ``?limit=&offset=``: up to ``max_limit`` items a page. Deep offsets read the page's ids first (an index-only
  scan), then fetch only those rows; past the middle of the list they count the rows and read from the end.
  That count is reused for ``API_COUNT_CACHE_SECONDS``, as estimates are (so such a page may shift by rows
  written meanwhile, as any offset page may between requests).
- ``?cursor=`` (empty to start): keyset pagination on the list's ordering, DRF ``CursorPagination`` semantics;
  follow ``next``/``previous``. Its cost does not grow with depth.
- A view may give a ``page_reader()``: then a page query selects only primary keys (and a keyset page its
  ordering columns), and the reader turns them into the page's items (the gateway list: `gateways.api.listing`).
- ``count`` is exact while the planner expects fewer than ``API_EXACT_COUNT_LIMIT`` rows (and on the last
  page); above that it is PostgreSQL's estimate and ``count_is_estimate`` is true.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import CursorPagination, LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response

from controlplane.api.counting import count_given, count_rows, planner_estimate, recent_count

__all__ = ["BoundedPagination", "KeysetPagination"]

MAX_LIMIT = 200
# Deeper than this, page with ?cursor= (a bigger offset would also overflow the database's OFFSET).
MAX_OFFSET = 10**9
# From this offset on, a page without a reader is read as ids first (an index-only scan), then rows (with their joins).
DEEP_OFFSET = 200


class KeysetPagination(CursorPagination):
    """Cursor pagination over the list's own ordering (``?ordering=`` or the model's), ``limit`` items a page."""

    cursor_query_param = "cursor"
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = MAX_LIMIT

    def get_ordering(self, request: Request, queryset: QuerySet, view: Any) -> tuple[str, ...]:
        ordering = tuple(queryset.query.order_by) or tuple(queryset.model._meta.ordering)
        return tuple(str(field) for field in ordering)


# A view's page reader: the page's items for these primary keys, in their order.
Read = Callable[[list[Any]], list[Any]]
_PAGING = frozenset({"limit", "offset", "cursor", "ordering"})


def _fetch_page(queryset: QuerySet, read: Read | None, offset: int, limit: int) -> list[Any]:
    """One page. With a ``read``, its primary keys (from an index), then ``read`` of them; without, instances,
    and past DEEP_OFFSET the skipped rows are read from an index (ids only) and only the page's rows fetched."""
    if read is None and offset < DEEP_OFFSET:
        return list(queryset[offset : offset + limit])
    ids = list(queryset.values_list("pk", flat=True)[offset : offset + limit])
    if read is not None:
        return read(ids)
    found = {row.pk: row for row in queryset.filter(pk__in=ids)}
    return [found[pk] for pk in ids if pk in found]


def _fetch_page_from_end(queryset: QuerySet, read: Read | None, total: int, offset: int, limit: int) -> list[Any]:
    """The page at ``offset`` of ``total`` rows, read in reverse order from the end: a page in the back half
    skips fewer rows that way. (Like any offset page, it may shift by rows written meanwhile.)"""
    end = min(offset + limit, total)
    if end <= offset:
        return []
    return _fetch_page(queryset.reverse(), read, total - end, end - offset)[::-1]


def _keyset_page(
    keyset: KeysetPagination, queryset: QuerySet, read: Read | None, request: Request, view: Any
) -> list[Any]:
    """A keyset page; with a ``read``, of just the keys (primary key and ordering columns), then ``read``."""
    if read is None:
        return keyset.paginate_queryset(queryset, request, view)
    ordering = {field.lstrip("-") for field in keyset.get_ordering(request, queryset, view)}
    keys = keyset.paginate_queryset(queryset.values("pk", *sorted(ordering)), request, view)
    return read([key["pk"] for key in keys])


def _scope(request: Request) -> tuple[Any, ...]:
    """What decides a list's rows: its path, its user and every parameter but the page's and the order's."""
    params = sorted((key, tuple(values)) for key, values in request.query_params.lists() if key not in _PAGING)
    return request.path, getattr(request.user, "pk", None), tuple(params)


class BoundedPagination(LimitOffsetPagination):
    """Every list's pagination: limit/offset, or keyset when ``cursor`` is given; see the module docstring."""

    default_limit = 50
    max_limit = MAX_LIMIT

    def paginate_queryset(self, queryset: QuerySet, request: Request, view: Any = None) -> list[Any]:
        """A view's ``page_reader()`` (if it gives one) reads the page's items from their primary keys, which
        are all a page query then selects; counts and id scans run on ``queryset`` itself, without its joins."""
        self.request = request
        self.keyset: KeysetPagination | None = None
        read: Read | None = view.page_reader() if hasattr(view, "page_reader") else None
        scope = _scope(request)
        if KeysetPagination.cursor_query_param in request.query_params:
            self.keyset = KeysetPagination()
            try:
                page = _keyset_page(self.keyset, queryset, read, request, view)
            except NotFound:
                raise ValidationError(
                    {"cursor": ["Not a cursor this API issued: start with an empty cursor, then follow `next`."]}
                ) from None
            self.count, self.count_is_estimate = count_rows(queryset, settings.API_EXACT_COUNT_LIMIT, scope)
            return page
        self.limit = self.get_limit(request)
        self.offset = self.get_offset(request)
        deep = self.offset >= DEEP_OFFSET
        estimate = planner_estimate(queryset, scope) if deep else None
        if deep and self.offset > (estimate or 0) // 2:
            self.count, self.count_is_estimate = recent_count(queryset, scope), False
            return _fetch_page_from_end(queryset, read, self.count, self.offset, self.limit)
        page = _fetch_page(queryset, read, self.offset, self.limit)
        if len(page) < self.limit and (page or self.offset == 0):
            self.count, self.count_is_estimate = self.offset + len(page), False
        elif deep:  # the planner was asked already
            self.count, self.count_is_estimate = count_given(queryset, settings.API_EXACT_COUNT_LIMIT, estimate)
        else:
            self.count, self.count_is_estimate = count_rows(queryset, settings.API_EXACT_COUNT_LIMIT, scope)
        return page

    def get_offset(self, request: Request) -> int:
        offset = super().get_offset(request)
        if offset > MAX_OFFSET:
            message = f"Ensure this value is at most {MAX_OFFSET}; page with ?cursor= instead."
            raise ValidationError({"offset": [message]})
        return offset

    def get_next_link(self) -> str | None:
        return self.keyset.get_next_link() if self.keyset else super().get_next_link()

    def get_previous_link(self) -> str | None:
        return self.keyset.get_previous_link() if self.keyset else super().get_previous_link()

    def get_paginated_response(self, data: Any) -> Response:
        return Response(
            {
                "count": self.count,
                "count_is_estimate": self.count_is_estimate,
                "next": self.get_next_link(),
                "previous": self.get_previous_link(),
                "results": data,
            }
        )

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        response = super().get_paginated_response_schema(schema)
        response["required"] = [*response["required"], "count_is_estimate"]
        response["properties"]["count"]["description"] = (
            "How many items match. Exact unless `count_is_estimate`: large lists report PostgreSQL's estimate."
        )
        response["properties"]["count_is_estimate"] = {
            "type": "boolean",
            "description": "True when `count` is the database's estimate rather than an exact count.",
        }
        return response

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        cursor = {
            "name": KeysetPagination.cursor_query_param,
            "required": False,
            "in": "query",
            "description": "Keyset pagination: pass it empty to start, then follow `next`/`previous` (which carry "
            "it). Pages cost the same at any depth; `offset` is ignored. Without it, lists page by `offset`.",
            "schema": {"type": "string"},
        }
        return [*super().get_schema_operation_parameters(view), cursor]
