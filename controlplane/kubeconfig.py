"""Validation of kubeconfig documents submitted by platform admins (pure; no I/O).

Every shape of YAML is either accepted or refused with a ValidationError: nothing else escapes.
"""

from __future__ import annotations

from typing import Any

import yaml
from django.core.exceptions import ValidationError

from controlplane.validators import validate_url_text

__all__ = ["MAX_KUBECONFIG_BYTES", "validate_kubeconfig"]

MAX_KUBECONFIG_BYTES = 256 * 1024
_UNSAFE_USER_KEYS = {"exec", "auth-provider", "tokenFile", "client-certificate", "client-key"}


def _invalid(message: str) -> ValidationError:
    return ValidationError(message, code="invalid_kubeconfig")


def _named(doc: dict[str, Any], section: str, body: str) -> dict[str, dict[str, Any]]:
    """``{name: body}`` of a ``[{name, <body>: {...}}]`` section; any other shape is refused."""
    entries = doc.get(section)
    if entries is None:
        return {}
    if not isinstance(entries, list):
        raise _invalid(f"The kubeconfig's {section!r} must be a list.")
    named: dict[str, dict[str, Any]] = {}
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise _invalid(f"Each entry of {section!r} must be a mapping with a string 'name'.")
        value = entry.get(body)
        if value is None:
            value = {}
        if not isinstance(value, dict):
            raise _invalid(f"{section}[{entry['name']!r}].{body} must be a mapping.")
        named[entry["name"]] = value
    return named


def _load(value: str) -> dict[str, Any]:
    if not isinstance(value, str):
        raise _invalid("The kubeconfig must be text.")
    if len(value.encode("utf-8", "surrogatepass")) > MAX_KUBECONFIG_BYTES:
        raise ValidationError(f"The kubeconfig is larger than {MAX_KUBECONFIG_BYTES} bytes.", code="too_large")
    try:
        doc = yaml.safe_load(value)
    except (yaml.YAMLError, ValueError, RecursionError):
        raise _invalid("The kubeconfig is not valid YAML.") from None
    if not isinstance(doc, dict):
        raise _invalid("The kubeconfig must be a YAML mapping.")
    return doc


def validate_kubeconfig(value: str) -> None:
    """A kubeconfig must be a YAML mapping whose current context names a cluster with a server."""
    doc = _load(value)
    contexts = _named(doc, "contexts", "context")
    clusters = _named(doc, "clusters", "cluster")
    users = _named(doc, "users", "user")
    current = doc.get("current-context")
    if not isinstance(current, str) or current not in contexts:
        raise _invalid("The kubeconfig has no valid current-context.")
    for user in users.values():
        unsafe = _UNSAFE_USER_KEYS & set(user)
        if unsafe:
            raise _invalid(
                f"Kubeconfig users may not use {', '.join(sorted(map(str, unsafe)))}: the worker would run "
                "commands or read files on its own host. Embed a token or certificate data instead."
            )
    cluster_name = contexts[current].get("cluster")
    cluster = clusters.get(cluster_name) if isinstance(cluster_name, str) else None
    if cluster is not None and "certificate-authority" in cluster:
        raise _invalid("Use certificate-authority-data, not a file path: the worker cannot read files on its own host.")
    server = cluster.get("server") if cluster is not None else None
    if not isinstance(server, str) or not server.startswith(("https://", "http://")):
        raise _invalid("The kubeconfig's current context must name a cluster with an http(s) server.")
    try:
        validate_url_text(server)
    except ValidationError:
        raise _invalid("The cluster's server URL may not contain whitespace or control characters.") from None
