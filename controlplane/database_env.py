"""``DATABASES["default"]`` from ``DATABASE_URL``: PostgreSQL as given, SQLite set up for concurrent writers
(and on ``controlplane.sqlite``, which migrates past PostgreSQL-only indexes).

The embedded SQLite default is shared by the API, the worker's processes, beat and the watcher. In its default
rollback-journal mode a writer blocks every reader, and a deferred transaction that turns into a write gives up at
once with "database is locked" instead of waiting. So SQLite runs in WAL mode (readers never wait for the writer),
every transaction begins IMMEDIATE (it takes the write lock up front, where the busy timeout applies), and a
writer waits up to ``SQLITE_BUSY_TIMEOUT_SECONDS`` for the lock.
"""

from __future__ import annotations

from typing import Any

import dj_database_url

__all__ = ["SQLITE_BUSY_TIMEOUT_SECONDS", "SQLITE_ENGINE", "SQLITE_OPTIONS", "database_config"]

# Django's SQLite backend, but for PostgreSQL-only indexes when a migration rebuilds a table.
SQLITE_ENGINE = "controlplane.sqlite"
# Longer than any single write transaction of a pass; a writer waiting longer than this still fails, and its
# task is retried (workers.tasks.transient).
SQLITE_BUSY_TIMEOUT_SECONDS = 20
SQLITE_OPTIONS: dict[str, Any] = {
    # WAL is stored in the file, so this only converts it once; NORMAL is durable in WAL mode but for a power cut.
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
    "transaction_mode": "IMMEDIATE",
    "timeout": SQLITE_BUSY_TIMEOUT_SECONDS,
}


def database_config(url: str, conn_max_age: int) -> dict[str, Any]:
    """The connection settings for ``url``; only SQLite gets ``SQLITE_OPTIONS``."""
    # Connections outlive a request (a new one per request cost ~15 ms of its latency); each is checked once a
    # request before reuse, so a restarted database costs no failed request.
    config: dict[str, Any] = dict(dj_database_url.parse(url, conn_max_age=conn_max_age, conn_health_checks=True))
    if config["ENGINE"] == "django.db.backends.sqlite3":
        config["ENGINE"] = SQLITE_ENGINE
        config["OPTIONS"] = {**config.get("OPTIONS", {}), **SQLITE_OPTIONS}
    return config
