"""Decode Helm's release records, as its `secret` storage driver keeps them (pure; no I/O).

Helm stores each revision of a release in a Secret named ``sh.helm.release.v1.<name>.v<revision>``,
of type ``helm.sh/release.v1``, labelled ``owner=helm``, ``name``, ``version`` and ``status``. Its
``release`` key holds the release document as JSON, gzipped, then base64-encoded (and base64-encoded
once more by the Secret's ``data`` encoding). The labels are enough to find each release's latest
revision, so only that one is ever decoded, and only once per process for each version of its Secret.
"""

from __future__ import annotations

import base64
import binascii
import gzip
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import orjson

from cluster_vocabulary.helm import HelmStatus
from workers.drivers import errors
from workers.drivers.helm_parse import HelmReleaseStatus, parse_time
from workers.memo import Memo

__all__ = [
    "HELM_OWNER_SELECTOR",
    "StoredRelease",
    "decode_release_secret",
    "latest_releases",
    "newest_records",
    "remember_releases",
    "remembered_release",
]

HELM_OWNER_SELECTOR = "owner=helm"
RELEASE_SECRET_TYPE = "helm.sh/release.v1"
GZIP_MAGIC = b"\x1f\x8b\x08"
# Decoded records kept per worker process, until `remember_releases` says how many (FLEET_MEMO_GATEWAYS).
DECODED_MEMO_SIZE = 20_000


@dataclass(frozen=True)
class StoredRelease:
    """One revision as Helm stored it: its status, the user-supplied values, and the rendered manifest."""

    status: HelmReleaseStatus
    values: dict[str, Any] = field(repr=False)
    manifest: str = field(repr=False)


_decoded: Memo[StoredRelease] = Memo(DECODED_MEMO_SIZE)


def _release_bytes(secret: dict[str, Any]) -> bytes:
    encoded = (secret.get("data") or {}).get("release")
    if not isinstance(encoded, str):
        raise errors.HelmError(f"release secret {_name(secret)} has no release data")
    try:
        payload = base64.b64decode(base64.b64decode(encoded, validate=True), validate=True)
        return gzip.decompress(payload) if payload[:3] == GZIP_MAGIC else payload
    except (binascii.Error, ValueError, OSError, EOFError, zlib.error) as exc:
        raise errors.HelmError(f"release secret {_name(secret)} is not decodable: {exc}") from None


def decode_release_secret(secret: dict[str, Any]) -> StoredRelease:
    """The release revision held by one Helm storage Secret (decoded once per uid and resourceVersion: the
    result is shared, and must not be changed)."""
    return _decoded.get(_version_key(secret), lambda: _decode(secret))


def _version_key(secret: dict[str, Any]) -> tuple[str, str] | None:
    meta = secret.get("metadata", {})
    uid, version = meta.get("uid"), meta.get("resourceVersion")
    return (uid, version) if uid and version else None


def _decode(secret: dict[str, Any]) -> StoredRelease:
    try:
        document = orjson.loads(_release_bytes(secret))
    except ValueError:
        raise errors.HelmError(f"release secret {_name(secret)} does not hold JSON") from None
    if not isinstance(document, dict) or "name" not in document:
        raise errors.HelmError(f"release secret {_name(secret)} does not hold a release")
    info = document.get("info") or {}
    chart = (document.get("chart") or {}).get("metadata") or {}
    config = document.get("config") or {}
    status = HelmReleaseStatus(
        name=str(document["name"]),
        namespace=str(document.get("namespace", "")),
        revision=int(document.get("version", 0)),
        status=str(info.get("status", HelmStatus.UNKNOWN)),
        chart_name=chart.get("name"),
        chart_version=chart.get("version"),
        app_version=chart.get("appVersion") or None,
        last_deployed=parse_time(info.get("last_deployed")),
    )
    return StoredRelease(
        status=status, values=config if isinstance(config, dict) else {}, manifest=str(document.get("manifest", ""))
    )


def _revision(secret: dict[str, Any]) -> int:
    label = (secret.get("metadata", {}).get("labels") or {}).get("version", "")
    return int(label) if str(label).isdigit() else -1


def newest_records(secrets: Iterable[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    """The Secret of every release's latest revision, keyed by (namespace, release name)."""
    newest: dict[tuple[str, str], dict[str, Any]] = {}
    for secret in secrets:
        meta = secret.get("metadata", {})
        labels = meta.get("labels") or {}
        if secret.get("type") not in (None, RELEASE_SECRET_TYPE) or labels.get("owner") != "helm":
            continue
        key = (meta.get("namespace", ""), labels.get("name", ""))
        if key not in newest or _revision(secret) > _revision(newest[key]):
            newest[key] = secret
    return newest


def latest_releases(secrets: Iterable[dict[str, Any]]) -> dict[tuple[str, str], StoredRelease]:
    """The latest revision of every release, keyed by (namespace, release name); older ones stay encoded."""
    return {key: decode_release_secret(secret) for key, secret in newest_records(secrets).items()}


def remember_releases(count: int) -> None:
    """Keep the decoded records of ``count`` releases in this process (one per gateway of the fleet)."""
    _decoded.resize(count)


def remembered_release(head: dict[str, Any]) -> StoredRelease | None:
    """The record a Secret holds, when this process has decoded that very version (only metadata is read)."""
    return _decoded.peek(_version_key(head))


def _name(secret: dict[str, Any]) -> str:
    meta = secret.get("metadata", {})
    return f"{meta.get('namespace', '')}/{meta.get('name', '?')}"
