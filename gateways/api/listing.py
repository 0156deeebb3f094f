"""The gateway list's read path: one ``values()`` query and a plain function per row, not a serializer.

A page of 50 gateways through ``GatewaySerializer`` costs about as much Python as the rest of the request
together: a model instance per row and per related row (each release with its chart values), then a
dozen nested fields per gateway. A list only reads, so it fetches just the columns a list item shows and
builds each item directly. ``GatewaySerializer`` stays the definition of the shape (and of the schema):
tests compare both on every kind of gateway.
"""

from __future__ import annotations

from datetime import datetime, tzinfo
from typing import Any

from django.db.models import QuerySet

from gateways.models import Gateway

__all__ = ["COLUMNS", "represent", "rows"]

_OIDC = ("issuer", "audience", "roles_claim", "admin_role", "user_role", "ca_configmap")
_CONDITION_KEYS = ("type", "status", "reason", "message", "lastTransitionTime")
COLUMNS = (
    "id", "name", "owner__username", "cluster__name", "namespace", "image", "supervisor_image",
    "route_enabled", "route_host", *(f"oidc_{key}" for key in _OIDC), "database_provider", "suspended",
    "labels", "release__name", "generation", "phase", "conditions", "observed_generation", "route_address",
    "release_name", "release_revision", "release_status", "chart_version", "deployed_release__name",
    "failure_count", "next_attempt_at", "deletion_requested_at", "created_at", "updated_at",
    "release__image", "release__supervisor_image", "deployed_image", "deployed_supervisor_image",
)


def rows(queryset: QuerySet[Gateway]) -> QuerySet:
    """The list's queryset (filtered and ordered) as rows of just ``COLUMNS``."""
    return queryset.values(*COLUMNS)


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
    time zone (looked up once a page: each lookup is a context-local read)."""
    return {
        "id": str(row["id"]),
        "name": row["name"],
        "owner": row["owner__username"],
        "cluster": row["cluster__name"],
        "namespace": row["namespace"],
        "image": row["image"],
        "supervisor_image": row["supervisor_image"],
        "route": {"host": row["route_host"]} if row["route_enabled"] else None,
        "oidc": {key: row[f"oidc_{key}"] for key in _OIDC} if row["oidc_issuer"] else None,
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
                "image": row["deployed_image"], "supervisor_image": row["deployed_supervisor_image"],
            } if row["deployed_image"] else None,
            "failure_count": row["failure_count"],
            "next_attempt_at": _time(row["next_attempt_at"], zone),
            "deletion_requested_at": _time(row["deletion_requested_at"], zone),
        },
        "created_at": _time(row["created_at"], zone),
        "updated_at": _time(row["updated_at"], zone),
    }
