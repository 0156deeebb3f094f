"""DATABASES from DATABASE_URL: SQLite (the embedded default) in WAL mode, IMMEDIATE, with a busy timeout, so
concurrent writers wait instead of failing; PostgreSQL as given."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from django.db import connections, transaction

from controlplane.database_env import SQLITE_BUSY_TIMEOUT_SECONDS, database_config

pytestmark = pytest.mark.integration

WRITERS, WRITES = 4, 25
ALIAS = "embedded-sqlite"


def test_postgresql_is_unchanged() -> None:
    config = database_config("postgres://cp@db.example.com:5432/cp", 60)
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert not config.get("OPTIONS")
    assert (config["CONN_MAX_AGE"], config["CONN_HEALTH_CHECKS"]) == (60, True)


def test_sqlite_gets_wal_immediate_transactions_and_a_busy_timeout(tmp_path: Path) -> None:
    config = database_config(f"sqlite:///{tmp_path / 'db.sqlite3'}", 0)
    assert config["ENGINE"] == "controlplane.sqlite"
    assert config["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert config["OPTIONS"]["timeout"] == SQLITE_BUSY_TIMEOUT_SECONDS
    assert "PRAGMA journal_mode=WAL" in config["OPTIONS"]["init_command"]


@pytest.fixture
def sqlite(tmp_path: Path, django_db_blocker: Any) -> Iterator[str]:
    """The alias of a fresh SQLite file (not the test database) with the settings the control plane uses."""
    config = database_config(f"sqlite:///{tmp_path / 'db.sqlite3'}", 0)
    connections.settings[ALIAS] = connections.configure_settings({"default": config})["default"]
    try:
        with django_db_blocker.unblock():
            yield ALIAS
    finally:
        connections[ALIAS].close()
        del connections[ALIAS]
        del connections.settings[ALIAS]


def test_a_real_connection_runs_in_wal_mode_with_the_busy_timeout(sqlite: str) -> None:
    with connections[sqlite].cursor() as cursor:
        assert cursor.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert cursor.execute("PRAGMA busy_timeout").fetchone() == (SQLITE_BUSY_TIMEOUT_SECONDS * 1000,)


def test_concurrent_read_then_write_transactions_all_commit(sqlite: str) -> None:
    """The shape of a reconcile pass (read, then write, in one transaction) from several threads at once. In
    SQLite's default deferred mode a transaction that turns from reader into writer fails at once with
    "database is locked" instead of waiting."""
    with connections[sqlite].cursor() as cursor:
        cursor.execute("CREATE TABLE counter (n INTEGER)")
        cursor.execute("INSERT INTO counter VALUES (0)")

    def write(_: Any) -> None:
        connection = connections[sqlite]  # this thread's own
        try:
            for _ in range(WRITES):
                with transaction.atomic(using=sqlite), connection.cursor() as cursor:
                    (n,) = cursor.execute("SELECT n FROM counter").fetchone()
                    cursor.execute("UPDATE counter SET n = %s", [n + 1])
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=WRITERS) as pool:
        list(pool.map(write, range(WRITERS)))
    with connections[sqlite].cursor() as cursor:
        assert cursor.execute("SELECT n FROM counter").fetchone() == (WRITERS * WRITES,), "an update was lost"
