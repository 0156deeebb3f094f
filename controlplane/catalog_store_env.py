"""Read the catalog content store's S3 settings (``CATALOG_S3_*``) from the environment, failing fast.

The result is the keyword arguments of ``catalogs.store.s3.S3Config`` (less the scratch root).
Error messages name the variable and never carry a secret's value.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from controlplane.env import config_error, env_bool, env_choice, env_path, env_required

__all__ = ["S3_VARIABLES", "catalog_s3_env"]

S3_VARIABLES = (
    "CATALOG_S3_ENDPOINT_URL",
    "CATALOG_S3_BUCKET",
    "CATALOG_S3_PREFIX",
    "CATALOG_S3_REGION",
    "CATALOG_S3_ACCESS_KEY_ID",
    "CATALOG_S3_SECRET_ACCESS_KEY",
    "CATALOG_S3_VERIFY_TLS",
    "CATALOG_S3_CA_BUNDLE",
    "CATALOG_S3_ADDRESSING_STYLE",
)
_BUCKET = re.compile(r"^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$")


def _set(name: str) -> str:
    return os.environ.get(name, "").strip()


def _key_pair(id_name: str, secret_name: str) -> tuple[str, str] | None:
    key_id, secret = _set(id_name), _set(secret_name)
    if bool(key_id) != bool(secret):
        missing = secret_name if key_id else id_name
        raise config_error(missing, f"is not set but {id_name if key_id else secret_name} is", "set both or neither")
    return (key_id, secret) if key_id else None


def catalog_s3_env(store: str) -> dict[str, Any]:
    """The S3 settings when ``store`` is ``s3``; with the directory store, no CATALOG_S3_* may be set."""
    if store != "s3":
        stray = [name for name in S3_VARIABLES if name in os.environ]
        if stray:
            name = stray[0]
            raise config_error(name, "is set but CATALOG_STORE is not s3", f"set CATALOG_STORE=s3 or unset {name}")
        return {}
    bucket = env_required("CATALOG_S3_BUCKET", "set CATALOG_S3_BUCKET to the bucket that holds catalog content")
    if not _BUCKET.match(bucket):
        raise config_error(
            "CATALOG_S3_BUCKET", f"is not a valid bucket name: {bucket[:80]!r}", "use 3-63 of a-z 0-9 . -"
        )
    endpoint = _set("CATALOG_S3_ENDPOINT_URL")
    scheme = urlparse(endpoint).scheme if endpoint else "https"
    if scheme not in ("http", "https") or (endpoint and not urlparse(endpoint).hostname):
        raise config_error(
            "CATALOG_S3_ENDPOINT_URL",
            f"is not an http(s) URL: {endpoint[:80]!r}",
            "use https://host[:port] (or unset it for AWS)",
        )
    verify_tls = env_bool("CATALOG_S3_VERIFY_TLS", True)
    ca_bundle = str(env_path("CATALOG_S3_CA_BUNDLE", Path(), must_exist=True)) if _set("CATALOG_S3_CA_BUNDLE") else ""
    if ca_bundle and not verify_tls:
        raise config_error(
            "CATALOG_S3_CA_BUNDLE",
            "is set but CATALOG_S3_VERIFY_TLS is false",
            "unset one of them: a CA bundle is only used when verifying TLS",
        )
    if scheme == "http" and (ca_bundle or "CATALOG_S3_VERIFY_TLS" in os.environ):
        name = "CATALOG_S3_CA_BUNDLE" if ca_bundle else "CATALOG_S3_VERIFY_TLS"
        raise config_error(
            name, "is set but CATALOG_S3_ENDPOINT_URL is plain http", f"use an https endpoint or unset {name}"
        )
    keys = _key_pair("CATALOG_S3_ACCESS_KEY_ID", "CATALOG_S3_SECRET_ACCESS_KEY") or _key_pair(
        "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"
    )
    prefix = _set("CATALOG_S3_PREFIX").strip("/")
    return {
        "bucket": bucket,
        "prefix": f"{prefix}/" if prefix else "",
        "endpoint_url": endpoint or None,
        "region": _set("CATALOG_S3_REGION") or _set("AWS_REGION") or _set("AWS_DEFAULT_REGION") or "us-east-1",
        "access_key_id": keys[0] if keys else None,
        "secret_access_key": keys[1] if keys else None,
        "verify": ca_bundle or verify_tls,
        "addressing_style": env_choice("CATALOG_S3_ADDRESSING_STYLE", "auto", ("auto", "path", "virtual")),
    }
