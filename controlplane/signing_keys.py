"""A signature policy's cosign public keys (a catalog's or a release's): what may be trusted, checked on every write."""

from __future__ import annotations

import hashlib
import re

from django.core.exceptions import ValidationError

__all__ = ["MAX_KEYS", "MAX_KEYS_CHARS", "invalid_key", "keys_fingerprint", "validate_signature_keys"]

MAX_KEYS = 8
MAX_KEYS_CHARS = 64 * 1024
_BLOCK = re.compile(r"-----BEGIN ([A-Z0-9 ]{1,64})-----(.*?)-----END \1-----", re.DOTALL)


def invalid_key(message: str) -> ValidationError:
    return ValidationError(message, code="invalid_signature_key")


def validate_signature_keys(value: str) -> None:
    """Empty (no policy), or 1 to ``MAX_KEYS`` distinct supported PEM public keys and nothing else."""
    if not value.strip():
        return
    if len(value) > MAX_KEYS_CHARS:
        raise invalid_key(f"At most {MAX_KEYS_CHARS} characters of public keys are allowed.")
    blocks = list(_BLOCK.finditer(value))
    if not blocks or _BLOCK.sub("", value).strip():
        raise invalid_key(
            "Expected one or more PEM public keys (-----BEGIN PUBLIC KEY----- ... "
            "-----END PUBLIC KEY-----) and nothing else."
        )
    if len(blocks) > MAX_KEYS:
        raise invalid_key(f"At most {MAX_KEYS} public keys are allowed; got {len(blocks)}.")
    from controlplane.public_keys import public_key_der  # cryptography: loaded here, not where models are imported

    seen: dict[bytes, int] = {}
    for number, block in enumerate(blocks, start=1):
        try:
            der = public_key_der(number, block.group(1), block.group(0))
        except ValueError as exc:
            raise invalid_key(str(exc)) from None
        if der in seen:
            raise invalid_key(f"Key {number} repeats key {seen[der]}.")
        seen[der] = number


def keys_fingerprint(value: str) -> str:
    """Names a key set ('' for none): content verified under one set is re-verified when it changes."""
    compact = "".join(value.split())
    return "sha256:" + hashlib.sha256(compact.encode()).hexdigest() if compact else ""
