"""The gateway list's read path: the page's rows by primary key, and a plain function per row, not a serializer.

A page of 50 gateways through ``GatewaySerializer`` costs about as much Python as the rest of the request
together: a model instance per row and per related row (each release with its chart values), then a
dozen nested fields per gateway. A list only reads, so it fetches just the columns a list item shows and
builds each item directly. ``GatewaySerializer`` stays the definition of the shape (and of the schema):
tests compare both on every kind of gateway.

On PostgreSQL the rows come from one statement the ORM compiles once per process (compiling its joins and
37 columns cost more than running it) and are decoded in C: timestamps by ``datetime.fromisoformat`` from
PostgreSQL's ISO text, JSON by orjson. (Django's own loaders parse both in Python: half the fetch's time.)
"""

from __future__ import annotations

import functools
from datetime import datetime, tzinfo
from typing import Any

import orjson
from django.db import connections
from django.db.models import QuerySet
from django.utils import timezone
from psycopg.adapt import Buffer, Loader
from psycopg.types.json import set_json_loads
from psycopg.types.string import TextLoader

from gateways.models import Gateway

__all__ = ["COLUMNS", "read", "represent"]

_OIDC = ("issuer", "audience", "roles_claim", "admin_role", "user_role", "ca_configmap")
_CONDITION_KEYS = ("type", "status", "reason", "message", "lastTransitionTime")
COLUMNS = (
    "id",
    "name",
    "owner__username",
    "cluster__name",
    "namespace",
    "image",
    "supervisor_image",
    "route_enabled",
    "route_host",
    *(f"oidc_{key}" for key in _OIDC),
    "database_provider",
    "suspended",
    "labels",
    "release__name",
    "generation",
    "phase",
    "conditions",
    "observed_generation",
    "route_address",
    "release_name",
    "release_revision",
    "release_status",
    "chart_version",
    "deployed_release__name",
    "failure_count",
    "next_attempt_at",
    "window_held_until",
    "deletion_requested_at",
    "created_at",
    "updated_at",
    "release__image",
    "release__supervisor_image",
    "deployed_image",
    "deployed_supervisor_image",
)


class _IsoTimestamptzLoader(Loader):
    """``timestamptz`` from PostgreSQL's text (DateStyle ISO, as Django's connections use), parsed in C."""

    def load(self, data: Buffer) -> datetime:
        return datetime.fromisoformat(bytes(data).decode())


@functools.cache
def _statement(alias: str) -> str:
    """The rows of ``COLUMNS`` whose primary key is in the array parameter (a text literal), compiled for
    ``alias``, in no order."""
    sql, params = Gateway.objects.using(alias).order_by().values(*COLUMNS).query.sql_with_params()
    if params:
        raise ValueError(f"the list statement should take no parameters: {params!r}")
    quote = connections[alias].ops.quote_name
    return f"{sql} WHERE {quote(Gateway._meta.db_table)}.{quote(Gateway._meta.pk.column)} = ANY(%s::uuid[])"


_names: dict[str, list[str]] = {}  # alias -> the statement's column names (psycopg builds them afresh each time)


def _rows(keys: list[str]) -> list[dict[str, Any]] | QuerySet:
    """The rows of ``COLUMNS`` whose primary key's text is in ``keys``, in any order."""
    connection = connections[Gateway.objects.db]
    if connection.vendor != "postgresql":
        return Gateway.objects.filter(pk__in=keys).order_by().values(*COLUMNS)
    with connection.cursor() as cursor:
        pg_cursor = cursor.cursor
        set_json_loads(orjson.loads, pg_cursor)
        pg_cursor.adapters.register_loader("timestamptz", _IsoTimestamptzLoader)
        pg_cursor.adapters.register_loader("uuid", TextLoader)
        cursor.execute(_statement(connection.alias), ["{" + ",".join(keys) + "}"])
        names = _names.get(connection.alias) or _names.setdefault(
            connection.alias, [column.name for column in cursor.description]
        )
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def read(ids: list[Any]) -> list[dict[str, Any]]:
    """The list items of the gateways ``ids``, in that order (a gateway deleted meanwhile is left out)."""
    if not ids:
        return []
    keys = [str(pk) for pk in ids]  # text keys: a UUID hashes in Python, a string in C
    found = {str(row["id"]): row for row in _rows(keys)}
    zone = timezone.get_current_timezone()  # once a page: each lookup is a context-local read
    return [represent(found[key], zone) for key in keys if key in found]


def _time(value: datetime | None, zone: tzinfo) -> str | None:
    """As DRF's ``DateTimeField`` renders it: ISO 8601 in the current time zone, UTC as ``Z``."""
    if value is None:
        return None
    text = value.astimezone(zone).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def _condition(condition: dict[str, Any]) -> dict[str, Any]:
    item = {key: condition[key] for key in _CONDITION_KEYS}
    item["observedGeneration"] = int(condition["observedGeneration"])
    return item


def represent(row: dict[str, Any], zone: tzinfo) -> dict[str, Any]:
    """One list item, exactly as ``GatewaySerializer`` renders the same gateway; ``zone`` is the current
    time zone."""
    return {
        "id": str(row["id"]),
        "name": row["name"],
        "owner": row["owner__username"],
        "cluster": row["cluster__name"],
        "namespace": row["namespace"],
        "image": row["image"],
        "supervisor_image": row["supervisor_image"],
        "route": {"enabled": row["route_enabled"], "host": row["route_host"]},
        "oidc": {"enabled": bool(row["oidc_issuer"]), **{key: row[f"oidc_{key}"] for key in _OIDC}},
        "database": {"provider": row["database_provider"]},
        "suspended": row["suspended"],
        "labels": {str(key): None if value is None else str(value) for key, value in row["labels"].items()},
        "release": row["release__name"],
        "desired_images": {
            "image": row["image"] or row["release__image"] or "",
            "supervisor_image": row["supervisor_image"] or row["release__supervisor_image"] or "",
            "overridden": bool(row["image"] or row["supervisor_image"]),
        },
        "generation": row["generation"],
        "status": {
            "phase": row["phase"],
            "conditions": [_condition(condition) for condition in row["conditions"]],
            "observed_generation": row["observed_generation"],
            "route_address": row["route_address"],
            "release": {
                "name": row["release_name"],
                "revision": row["release_revision"],
                "status": row["release_status"],
                "chart_version": row["chart_version"],
            },
            "deployed_release": row["deployed_release__name"],
            "deployed_images": {
                "image": row["deployed_image"],
                "supervisor_image": row["deployed_supervisor_image"],
            }
            if row["deployed_image"]
            else None,
            "failure_count": row["failure_count"],
            "next_attempt_at": _time(row["next_attempt_at"], zone),
            "window_held_until": _time(row["window_held_until"], zone),
            "deletion_requested_at": _time(row["deletion_requested_at"], zone),
        },
        "created_at": _time(row["created_at"], zone),
        "updated_at": _time(row["updated_at"], zone),
    }
