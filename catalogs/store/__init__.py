"""The catalog content store: immutable entries named by content digest, shared by every replica.

An entry is three objects: the JSONL catalog, its gzip copy (compressed once, at write time) and
the byte-offset index. ``CATALOG_STORE`` picks where entries live: a shared directory
(``catalogs.store.fs``, the default) or an S3 bucket (``catalogs.store.s3``). Both implement
``ContentStore``; callers use only that, through ``get()``. The database decides which entry a
catalog serves; see ``catalogs.cleanup`` for the locking that keeps the two in step.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

from catalogs.store.entries import (
    ALL_FILE,
    ALL_GZ_FILE,
    ENTRY_FILES,
    INDEX_FILE,
    ContentStore,
    EntryStat,
    StoredEntry,
    StoreError,
    entry_name,
)

__all__ = [
    "ALL_FILE",
    "ALL_GZ_FILE",
    "ENTRY_FILES",
    "INDEX_FILE",
    "ContentStore",
    "EntryStat",
    "StoreError",
    "StoredEntry",
    "entry_name",
    "get",
]


def get() -> ContentStore:
    """The store the settings name (a store is cheap to get: S3 clients are built once per configuration)."""
    if settings.CATALOG_STORE == "s3":
        from catalogs.store.s3 import S3Config, store_for

        return store_for(S3Config.from_settings())
    from catalogs.store.fs import FilesystemStore

    return FilesystemStore(Path(settings.CATALOG_STORE_DIR))
