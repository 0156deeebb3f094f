"""Which database errors a task retries, and after how long (pure)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import psycopg.errors
import pytest
from django.db import IntegrityError, OperationalError

from workers.reconcile.transient import TRANSIENT_RETRY, is_transient, retry_delay


def wrapped(cause: Exception, cls: type[Exception] = OperationalError) -> Exception:
    """The error as Django raises it: its own class, the driver's error as the cause."""
    error = cls(*cause.args)
    error.__cause__ = cause
    return error


def sqlite_locked(tmp_path: Path) -> sqlite3.OperationalError:
    """A real "database is locked": a second writer that does not wait for the first."""
    path = tmp_path / "locked.sqlite3"
    first = sqlite3.connect(path, isolation_level=None)
    first.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(sqlite3.OperationalError) as caught:
            sqlite3.connect(path, timeout=0, isolation_level=None).execute("BEGIN IMMEDIATE")
    finally:
        first.execute("ROLLBACK")
    return caught.value


def test_sqlite_lock_contention_is_transient(tmp_path: Path) -> None:
    assert is_transient(wrapped(sqlite_locked(tmp_path)))


@pytest.mark.parametrize(
    ("cause", "transient"),
    [
        (psycopg.errors.SerializationFailure("could not serialize access"), True),
        (psycopg.errors.DeadlockDetected("deadlock detected"), True),
        (psycopg.errors.LockNotAvailable("could not obtain lock on row"), True),
        (psycopg.errors.UndefinedTable('relation "x" does not exist'), False),
        (psycopg.errors.AdminShutdown("terminating connection"), False),
        (sqlite3.OperationalError("no such table: gateways_gateway"), False),
        (sqlite3.OperationalError("disk I/O error"), False),
    ],
)
def test_only_contention_is_transient(cause: Exception, transient: bool) -> None:
    assert is_transient(wrapped(cause)) is transient


def test_other_classes_are_not_transient() -> None:
    assert not is_transient(wrapped(psycopg.errors.UniqueViolation("duplicate key"), IntegrityError))
    assert not is_transient(RuntimeError("database is locked"))


@pytest.mark.parametrize(
    ("retries", "random_unit", "delay"),
    [
        (0, 0.0, 0.5),
        (1, 0.0, 1.0),
        (2, 0.0, 2.0),
        (4, 0.0, 8.0),
        (8, 0.0, 8.0),
        (3, 1.0, 2.0),
        (0, 0.5, 0.375),
    ],
)
def test_the_retry_backs_off_with_jitter(retries: int, random_unit: float, delay: float) -> None:
    assert retry_delay(wrapped(sqlite3.OperationalError("database is locked")), retries, random_unit) == delay


def test_the_retries_end_and_other_errors_are_not_retried() -> None:
    locked = wrapped(sqlite3.OperationalError("database is locked"))
    assert TRANSIENT_RETRY.max_failures is not None
    assert retry_delay(locked, TRANSIENT_RETRY.max_failures - 1, 0.0) is not None
    assert retry_delay(locked, TRANSIENT_RETRY.max_failures, 0.0) is None
    assert retry_delay(wrapped(sqlite3.OperationalError("no such table: x")), 0, 0.0) is None
