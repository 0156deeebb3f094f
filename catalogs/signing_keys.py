"""The signature policy's cosign public keys: what a catalog may trust, checked on every write."""

from __future__ import annotations

import hashlib
import re

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from django.core.exceptions import ValidationError

__all__ = ["MAX_KEYS", "MAX_KEYS_CHARS", "keys_fingerprint", "validate_signature_keys"]

MAX_KEYS = 8
MAX_KEYS_CHARS = 64 * 1024
RSA_BITS = (2048, 8192)
CURVES = (ec.SECP256R1, ec.SECP384R1, ec.SECP521R1)
SUPPORTED = "ECDSA P-256, P-384 or P-521, RSA of 2048 to 8192 bits, or Ed25519"
_BLOCK = re.compile(r"-----BEGIN ([A-Z0-9 ]{1,64})-----(.*?)-----END \1-----", re.DOTALL)


def _invalid(message: str) -> ValidationError:
    return ValidationError(message, code="invalid_signature_key")


def _describe(key: object) -> str:
    if isinstance(key, ec.EllipticCurvePublicKey):
        return f"ECDSA {key.curve.name}"
    if isinstance(key, rsa.RSAPublicKey):
        return f"RSA of {key.key_size} bits"
    return type(key).__name__.removeprefix("_").removesuffix("PublicKey")


def _check_key(number: int, label: str, block: str) -> bytes:
    """The key's DER SubjectPublicKeyInfo, once it is a supported public key."""
    if "PRIVATE KEY" in label:
        raise _invalid(f"Key {number} is a private key: give its public key (cosign.pub), and keep the private "
                       "key secret.")
    if label != "PUBLIC KEY":
        raise _invalid(f"Key {number} is a PEM {label.lower()}, not a public key (-----BEGIN PUBLIC KEY-----).")
    try:
        key = serialization.load_pem_public_key(block.encode())
    except (ValueError, UnsupportedAlgorithm):
        raise _invalid(f"Key {number} is not a readable PEM public key.") from None
    if isinstance(key, ec.EllipticCurvePublicKey):
        supported = isinstance(key.curve, CURVES)
    elif isinstance(key, rsa.RSAPublicKey):
        supported = RSA_BITS[0] <= key.key_size <= RSA_BITS[1]
    else:
        supported = isinstance(key, ed25519.Ed25519PublicKey)
    if not supported:
        raise _invalid(f"Key {number} ({_describe(key)}) is not supported: use {SUPPORTED}.")
    return key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)


def validate_signature_keys(value: str) -> None:
    """Empty (no policy), or 1 to ``MAX_KEYS`` distinct supported PEM public keys and nothing else."""
    if not value.strip():
        return
    if len(value) > MAX_KEYS_CHARS:
        raise _invalid(f"At most {MAX_KEYS_CHARS} characters of public keys are allowed.")
    blocks = list(_BLOCK.finditer(value))
    if not blocks or _BLOCK.sub("", value).strip():
        raise _invalid("Expected one or more PEM public keys (-----BEGIN PUBLIC KEY----- ... "
                       "-----END PUBLIC KEY-----) and nothing else.")
    if len(blocks) > MAX_KEYS:
        raise _invalid(f"At most {MAX_KEYS} public keys are allowed; got {len(blocks)}.")
    seen: dict[bytes, int] = {}
    for number, block in enumerate(blocks, start=1):
        der = _check_key(number, block.group(1), block.group(0))
        if der in seen:
            raise _invalid(f"Key {number} repeats key {seen[der]}.")
        seen[der] = number


def keys_fingerprint(value: str) -> str:
    """Names a key set ('' for none): content verified under one set is re-verified when it changes."""
    compact = "".join(value.split())
    return "sha256:" + hashlib.sha256(compact.encode()).hexdigest() if compact else ""
