"""Row counts that stay cheap on large tables: exact below a limit, else the PostgreSQL planner's estimate;
an exact count of a large list is reused for a few seconds."""

from __future__ import annotations

import json
import time

from django.db import connections
from django.db.models import QuerySet

from controlplane.ttl_cache import TtlCache

__all__ = ["count_given", "count_rows", "planner_estimate", "recent_count"]

clock = time.monotonic
counts: TtlCache[int] = TtlCache(max_entries=1000)  # (database, SQL, parameters) -> rows


def planner_estimate(queryset: QuerySet) -> int | None:
    """The planner's row estimate for ``queryset`` (``EXPLAIN``, nothing is scanned); None off PostgreSQL."""
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


def count_rows(queryset: QuerySet, exact_limit: int) -> tuple[int, bool]:
    """``(count, is_estimate)``: an exact ``COUNT`` when the estimate is below ``exact_limit``, else the estimate."""
    return count_given(queryset, exact_limit, planner_estimate(queryset))


def count_given(queryset: QuerySet, exact_limit: int, estimate: int | None) -> tuple[int, bool]:
    """``count_rows`` for a caller that already has the planner's ``estimate``."""
    if estimate is None or estimate < exact_limit:
        return queryset.count(), False
    return estimate, True


def recent_count(queryset: QuerySet, ttl: float) -> int:
    """An exact ``COUNT``, reused for ``ttl`` seconds by this process for the same query (0: always counts).

    Counting 100k rows takes 15 ms however well indexed, and a client paging through the back half of a
    large list asks for the same count on every page.
    """
    if ttl <= 0:
        return queryset.count()
    sql, params = queryset.order_by().query.sql_with_params()  # any ordering of one set has one count
    key, now = (queryset.db, sql, repr(params)), clock()
    found = counts.get(key, now)
    if found is None:
        found = queryset.count()
        counts.put(key, found, now + ttl)
    return found
