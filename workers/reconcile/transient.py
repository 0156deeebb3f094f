"""Which database errors are transient, and how soon a task that met one runs again (pure).

Transient means lock contention that the same work gets past moments later: SQLite's "database is locked"
(a writer waited out the busy timeout), and PostgreSQL's serialization failures, deadlocks and lock timeouts.
Anything else (a constraint, a missing table, a lost server) is not retried here.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import OperationalError

from workers.reconcile.retry import RetryPolicy

__all__ = ["TRANSIENT_RETRY", "is_transient", "retry_delay"]

_SQLITE_BUSY = ("database is locked", "database table is locked")
# serialization_failure, deadlock_detected, lock_not_available
_POSTGRES_RETRYABLE = frozenset({"40001", "40P01", "55P03"})

# 0.5, 1, 2, 4, 8, 8, ... s, each shortened by up to half at random so a burst's retries spread out; about
# a minute in all before the error is let through.
TRANSIENT_RETRY = RetryPolicy(
    base=timedelta(seconds=0.5),
    cap=timedelta(seconds=8),
    max_failures=10,
    jitter=0.5,
)


def is_transient(exc: BaseException) -> bool:
    """True for lock contention or a serialization failure, on SQLite or PostgreSQL."""
    if not isinstance(exc, OperationalError):
        return False
    sqlstate = getattr(exc.__cause__, "sqlstate", None)
    if sqlstate is not None:
        return sqlstate in _POSTGRES_RETRYABLE
    return str(exc).startswith(_SQLITE_BUSY)


def retry_delay(exc: BaseException, retries: int, random_unit: float) -> float | None:
    """Seconds before running the task again after ``exc`` on its ``retries``-th retry; None: let it fail."""
    if not is_transient(exc) or TRANSIENT_RETRY.exhausted(retries):
        return None
    return TRANSIENT_RETRY.delay(retries + 1, random_unit).total_seconds()
