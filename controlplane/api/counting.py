"""Row counts that stay cheap on large tables: exact below a limit, else the PostgreSQL planner's estimate.

Given a ``scope``, what alone decides the rows (a list request's path, user and filters, say), the estimate
and the exact count of a large list's back half are reused for ``API_COUNT_CACHE_SECONDS`` by each process:
a client paging through a list, or polling it, asks the same on every request. The scope is the key, not
the SQL: compiling the query for a key cost more than the EXPLAIN it saved.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Hashable

from django.conf import settings
from django.db import connections
from django.db.models import QuerySet

from controlplane.ttl_cache import TtlCache

__all__ = ["count_given", "count_rows", "planner_estimate", "recent_count"]

clock = time.monotonic
counts: TtlCache[int] = TtlCache(max_entries=1000)  # (kind, scope) -> rows


def _reused(kind: str, scope: Hashable | None, compute: Callable[[], int | None]) -> int | None:
    """``compute()``, or its answer for ``scope`` in the last ``API_COUNT_CACHE_SECONDS`` (no scope, or 0: always)."""
    ttl = settings.API_COUNT_CACHE_SECONDS
    if scope is None or ttl <= 0:
        return compute()
    key, now = (kind, scope), clock()
    found = counts.get(key, now)
    if found is None:
        found = compute()
        if found is not None:  # None: not PostgreSQL, nothing to remember
            counts.put(key, found, now + ttl)
    return found


def planner_estimate(queryset: QuerySet, scope: Hashable | None = None) -> int | None:
    """The planner's row estimate for ``queryset`` (``EXPLAIN``, nothing is scanned); None off PostgreSQL."""
    return _reused("estimate", scope, lambda: _explain_rows(queryset))


def _explain_rows(queryset: QuerySet) -> int | None:
    connection = connections[queryset.db]
    if connection.vendor != "postgresql":
        return None
    sql, params = queryset.order_by().values("pk").query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}", params)
        (plan,) = cursor.fetchone()
    if isinstance(plan, str):
        plan = json.loads(plan)
    return int(plan[0]["Plan"]["Plan Rows"])


def count_rows(queryset: QuerySet, exact_limit: int, scope: Hashable | None = None) -> tuple[int, bool]:
    """``(count, is_estimate)``: an exact ``COUNT`` when the estimate is below ``exact_limit``, else the estimate."""
    return count_given(queryset, exact_limit, planner_estimate(queryset, scope))


def count_given(queryset: QuerySet, exact_limit: int, estimate: int | None) -> tuple[int, bool]:
    """``count_rows`` for a caller that already has the planner's ``estimate``."""
    if estimate is None or estimate < exact_limit:
        return queryset.count(), False
    return estimate, True


def recent_count(queryset: QuerySet, scope: Hashable | None = None) -> int:
    """An exact ``COUNT``, reused like the estimate: counting 100k rows takes 15 ms however well indexed."""
    return _reused("exact", scope, queryset.count)  # type: ignore[return-value]
