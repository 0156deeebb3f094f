"""Portable lookups on JSON fields: the same answers on PostgreSQL and on SQLite (the embedded database).

Django's ``__contains`` and ``__has_key`` on a JSONField are PostgreSQL-only (``NotSupportedError`` on SQLite), so
a label selector compares each key's text value instead, which both backends compile (``->>`` and
``JSON_EXTRACT``). Keys are passed as values, never parsed from a lookup string, so a key with ``__``, dots or
slashes (``app.kubernetes.io/name``) selects that key.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db.models import Q, Value
from django.db.models.fields.json import KeyTextTransform
from django.db.models.lookups import Exact

__all__ = ["labels_include"]


def labels_include(field: str, labels: Mapping[str, str]) -> Q:
    """Rows whose string-to-string ``field`` has every key of ``labels`` with that value (all rows if empty)."""
    condition = Q()
    for key, value in labels.items():
        condition &= Q(Exact(KeyTextTransform(key, field), Value(value)))
    return condition
