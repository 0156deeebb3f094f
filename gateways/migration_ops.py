"""Migration operations that touch PostgreSQL only, so the same migrations also run on SQLite (`make run`)."""

from __future__ import annotations

from typing import Any

from django.contrib.postgres.operations import TrigramExtension
from django.db.migrations.operations import AddIndex

__all__ = ["PostgreSQLAddIndex", "PostgreSQLTrigramExtension"]


class _PostgreSQLOnly:
    """The state always changes; the schema only on PostgreSQL, both ways."""

    def database_forwards(self, app_label: str, schema_editor: Any, from_state: Any, to_state: Any) -> None:
        if schema_editor.connection.vendor == "postgresql":
            super().database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label: str, schema_editor: Any, from_state: Any, to_state: Any) -> None:
        if schema_editor.connection.vendor == "postgresql":
            super().database_backwards(app_label, schema_editor, from_state, to_state)


class PostgreSQLAddIndex(_PostgreSQLOnly, AddIndex):
    """``AddIndex`` for PostgreSQL-only indexes (GIN, trigram)."""


class PostgreSQLTrigramExtension(_PostgreSQLOnly, TrigramExtension):
    """``pg_trgm``; Django's own operation skips other databases going forwards but not backwards."""
