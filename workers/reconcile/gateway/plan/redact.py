"""Redact secrets out of what a plan shows (pure; no I/O).

Redaction is structural: values under sensitive keys, the ``data`` and ``stringData`` of every Secret,
and every occurrence of a known secret string (and of its base64 form) become a marker. A marker is
a fingerprint keyed with a random per-plan key, so a plan still shows *that* a secret changed (two
markers differ) without revealing it, and markers from different plans cannot be compared.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets as random_secrets
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["Redactor"]

MIN_SECRET_CHARS = 4
# Keys whose values are secret whatever they hold (matched against the last key of a path).
SENSITIVE_KEY = re.compile(
    r"^(uri|dsn|.*(password|passwd|token|privatekey|apikey|secretkey|clientsecret|credentials?))$", re.IGNORECASE
)
SECRET_DATA_KEYS = ("data", "stringData")


class Redactor:
    def __init__(self, secrets: Iterable[str], key: bytes | None = None) -> None:
        self._key = key or random_secrets.token_bytes(32)
        known = {s for s in secrets if s and len(s) >= MIN_SECRET_CHARS}
        known |= {base64.b64encode(s.encode()).decode() for s in known}
        self._secrets = sorted(known, key=len, reverse=True)

    def marker(self, value: Any) -> str:
        digest = hmac.new(self._key, json.dumps(value, sort_keys=True).encode(), hashlib.sha256).hexdigest()
        return f"[REDACTED:{digest[:12]}]"

    def text(self, value: str) -> str:
        """``value`` with every known secret in it replaced by its marker."""
        for secret in self._secrets:
            if secret in value:
                value = value.replace(secret, self.marker(secret))
        return value

    def tree(self, value: Any) -> Any:
        """A copy of a JSON-like tree with sensitive keys and known secrets redacted."""
        if isinstance(value, Mapping):
            return {
                key: self.marker(item) if isinstance(key, str) and SENSITIVE_KEY.match(key) else self.tree(item)
                for key, item in value.items()
            }
        if isinstance(value, list):
            return [self.tree(item) for item in value]
        if isinstance(value, str):
            return self.text(value)
        return value

    def manifest_object(self, obj: Mapping[str, Any]) -> dict[str, Any]:
        """A copy of a Kubernetes object; a Secret keeps its data keys, each value replaced by its marker."""
        redacted = self.tree(obj)
        if obj.get("kind") == "Secret":
            for name in SECRET_DATA_KEYS:
                data = obj.get(name)
                if isinstance(data, Mapping):
                    redacted[name] = {key: self.marker(item) for key, item in data.items()}
        return redacted
