"""Validation of kubeconfig documents submitted by platform admins (pure; no I/O)."""

from __future__ import annotations

import yaml
from django.core.exceptions import ValidationError

__all__ = ["MAX_KUBECONFIG_BYTES", "validate_kubeconfig"]

MAX_KUBECONFIG_BYTES = 256 * 1024
_UNSAFE_USER_KEYS = {"exec", "auth-provider", "tokenFile", "client-certificate", "client-key"}


def validate_kubeconfig(value: str) -> None:
    """A kubeconfig must be a YAML mapping whose current context names a cluster with a server."""
    if len(value.encode()) > MAX_KUBECONFIG_BYTES:
        raise ValidationError(f"The kubeconfig is larger than {MAX_KUBECONFIG_BYTES} bytes.", code="too_large")
    try:
        doc = yaml.safe_load(value)
    except yaml.YAMLError:
        raise ValidationError("The kubeconfig is not valid YAML.", code="invalid_kubeconfig") from None
    if not isinstance(doc, dict):
        raise ValidationError("The kubeconfig must be a YAML mapping.", code="invalid_kubeconfig")
    contexts = {c.get("name"): c.get("context", {}) for c in doc.get("contexts") or [] if isinstance(c, dict)}
    clusters = {c.get("name"): c.get("cluster", {}) for c in doc.get("clusters") or [] if isinstance(c, dict)}
    current = doc.get("current-context")
    if current not in contexts:
        raise ValidationError("The kubeconfig has no valid current-context.", code="invalid_kubeconfig")
    for entry in doc.get("users") or []:
        user = entry.get("user") if isinstance(entry, dict) else None
        if isinstance(user, dict) and _UNSAFE_USER_KEYS & set(user):
            raise ValidationError(
                f"Kubeconfig users may not use {', '.join(sorted(_UNSAFE_USER_KEYS & set(user)))}: the worker "
                "would run commands or read files on its own host. Embed a token or certificate data instead.",
                code="invalid_kubeconfig",
            )
    cluster = clusters.get((contexts[current] or {}).get("cluster"))
    if isinstance(cluster, dict) and "certificate-authority" in cluster:
        raise ValidationError(
            "Use certificate-authority-data, not a file path: the worker cannot read files on its own host.",
            code="invalid_kubeconfig",
        )
    if not isinstance(cluster, dict) or not str(cluster.get("server", "")).startswith(("https://", "http://")):
        raise ValidationError(
            "The kubeconfig's current context must name a cluster with an http(s) server.",
            code="invalid_kubeconfig",
        )
