"""Object metadata helpers: timestamps, uids, generated names and name validation."""

from __future__ import annotations

import random
import re
import string
import uuid
from datetime import UTC, datetime
from typing import Any

from devcluster.errors import invalid
from devcluster.resources import ResourceType

_DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
_DNS_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
_PATH_SEGMENT = re.compile(r"^[^/%]+$")

# Kinds whose names must be DNS-1123 labels; RBAC kinds only need to be valid path segments.
_LABEL_NAMED = {"Namespace", "Service"}
_PATH_NAMED = {"Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding"}


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def new_uid() -> str:
    return str(uuid.uuid4())


def generated_name(prefix: str) -> str:
    suffix = "".join(random.choices(string.ascii_lowercase + string.digits, k=5))
    return f"{prefix}{suffix}"


def validate_name(rt: ResourceType, name: str) -> None:
    """422 Invalid unless `name` is acceptable for the resource (DNS-1123 label or subdomain)."""
    if rt.kind in _PATH_NAMED:
        ok, rule = bool(_PATH_SEGMENT.match(name)) and name not in (".", ".."), "a valid path segment name"
    elif rt.kind in _LABEL_NAMED:
        ok = len(name) <= 63 and bool(_DNS_LABEL.match(name))
        rule = "a lowercase RFC 1123 label (lowercase alphanumerics or '-', at most 63 characters)"
    else:
        ok = len(name) <= 253 and bool(_DNS_SUBDOMAIN.match(name))
        rule = "a lowercase RFC 1123 subdomain (lowercase alphanumerics, '-' or '.', at most 253 characters)"
    if not ok:
        raise invalid(rt.group, rt.kind, name, "metadata.name", f'Invalid value: "{name}": must be {rule}')


PARTIAL_METADATA_GROUPS = ("meta.k8s.io",)
PARTIAL_METADATA_VERSIONS = ("v1", "v1beta1")


def partial_metadata_kind(accept: str) -> str | None:
    """`PartialObjectMetadata` or `PartialObjectMetadataList` when the Accept header asks for only metadata
    (`application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1`), as a real API server serves it to
    metadata-only informers; None for a plain request."""
    for media_range in accept.split(","):
        params = dict(part.strip().split("=", 1) for part in media_range.split(";")[1:] if "=" in part)
        if (
            params.get("as", "").startswith("PartialObjectMetadata")
            and params.get("g") in PARTIAL_METADATA_GROUPS
            and params.get("v") in PARTIAL_METADATA_VERSIONS
        ):
            return params["as"]
    return None


def partial_metadata(obj: dict[str, Any], kind: str = "PartialObjectMetadata") -> dict[str, Any]:
    """An object, or a list of them, reduced to metadata (the list keeps its own list metadata)."""
    reduced: dict[str, Any] = {"kind": kind, "apiVersion": "meta.k8s.io/v1", "metadata": obj.get("metadata", {})}
    if kind.endswith("List"):
        reduced["items"] = [partial_metadata(item) for item in obj.get("items", [])]
    return reduced
