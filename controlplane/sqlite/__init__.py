"""The SQLite backend of the embedded default: Django's, with a schema editor that leaves out PostgreSQL-only
indexes (see ``base``)."""
