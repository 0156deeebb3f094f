"""A cosign public key read with ``cryptography``: loaded only when a policy's keys are checked, so that the
processes that never check one (the slim content server) do not load it. A key it refuses is a ValueError."""

from __future__ import annotations

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

__all__ = ["SUPPORTED", "public_key_der"]

RSA_BITS = (2048, 8192)
CURVES = (ec.SECP256R1, ec.SECP384R1, ec.SECP521R1)
SUPPORTED = "ECDSA P-256, P-384 or P-521, RSA of 2048 to 8192 bits, or Ed25519"


def _describe(key: object) -> str:
    if isinstance(key, ec.EllipticCurvePublicKey):
        return f"ECDSA {key.curve.name}"
    if isinstance(key, rsa.RSAPublicKey):
        return f"RSA of {key.key_size} bits"
    return type(key).__name__.removeprefix("_").removesuffix("PublicKey")


def public_key_der(number: int, label: str, block: str) -> bytes:
    """The key's DER SubjectPublicKeyInfo, once it is a supported public key."""
    if "PRIVATE KEY" in label:
        raise ValueError(
            f"Key {number} is a private key: give its public key (cosign.pub), and keep the private key secret."
        )
    if label != "PUBLIC KEY":
        raise ValueError(f"Key {number} is a PEM {label.lower()}, not a public key (-----BEGIN PUBLIC KEY-----).")
    try:
        key = serialization.load_pem_public_key(block.encode())
    except (ValueError, UnsupportedAlgorithm):
        raise ValueError(f"Key {number} is not a readable PEM public key.") from None
    if isinstance(key, ec.EllipticCurvePublicKey):
        supported = isinstance(key.curve, CURVES)
    elif isinstance(key, rsa.RSAPublicKey):
        supported = RSA_BITS[0] <= key.key_size <= RSA_BITS[1]
    else:
        supported = isinstance(key, ed25519.Ed25519PublicKey)
    if not supported:
        raise ValueError(f"Key {number} ({_describe(key)}) is not supported: use {SUPPORTED}.")
    return key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
