"""Django's SQLite backend, except that a table rebuilt from the model state leaves out PostgreSQL-only indexes.

SQLite alters most columns by copying the table into a new one built from the migration state, indexes included.
The state holds the GIN trigram indexes that only PostgreSQL has (``gateways.migration_ops.PostgreSQLAddIndex``
skips creating them elsewhere), so without this any later ``AddField`` on such a model fails on SQLite with
``near "gin_trgm_ops": syntax error``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.postgres.indexes import PostgresIndex
from django.db.backends.sqlite3 import base, schema
from django.db.models import Model

__all__ = ["DatabaseSchemaEditor", "DatabaseWrapper"]


class DatabaseSchemaEditor(schema.DatabaseSchemaEditor):
    def _model_indexes_sql(self, model: type[Model]) -> list[Any]:
        indexes = model._meta.indexes
        model._meta.indexes = [index for index in indexes if not isinstance(index, PostgresIndex)]
        try:
            return super()._model_indexes_sql(model)
        finally:
            model._meta.indexes = indexes


class DatabaseWrapper(base.DatabaseWrapper):
    SchemaEditorClass = DatabaseSchemaEditor
