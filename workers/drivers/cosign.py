"""Cosign simple-signing verification with public keys (pure: no I/O).

Cosign stores the signatures of image ``sha256:<hex>`` in the same repository under the tag
``sha256-<hex>.sig``: an OCI manifest whose layers are simple-signing payloads, each annotated with
the base64 signature of its bytes. A payload is trusted when one policy key verifies its signature
(ECDSA with SHA-256 and RSA PKCS#1 v1.5 with SHA-256, as cosign's defaults, or Ed25519), and it
binds the image when its ``critical.image.docker-manifest-digest`` is the image's digest.

``critical.identity.docker-reference`` is not compared, as cosign does not: a signature stays valid
when the image is copied to a mirror under another name.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa

from workers.drivers.oci_manifest import SHA256_DIGEST

__all__ = [
    "MAX_SIGNATURES",
    "SIMPLE_SIGNING",
    "SignatureInvalid",
    "SignatureLayer",
    "SignedPayload",
    "key_fingerprint",
    "load_public_keys",
    "parse_signature_manifest",
    "signature_tag",
    "verify_signatures",
]

SIMPLE_SIGNING = "application/vnd.dev.cosign.simplesigning.v1+json"
SIGNATURE_ANNOTATION = "dev.cosignproject.cosign/signature"
SIGNATURE_TYPE = "cosign container image signature"
MAX_SIGNATURES = 32
MAX_SIGNATURE_CHARS = 8192
_PUBLIC_KEY = re.compile(r"-----BEGIN PUBLIC KEY-----[A-Za-z0-9+/=\s]+?-----END PUBLIC KEY-----")

PublicKey: TypeAlias = ec.EllipticCurvePublicKey | rsa.RSAPublicKey | ed25519.Ed25519PublicKey


class SignatureInvalid(Exception):
    """The image has no signature that a policy key verifies and that names the image's digest."""


@dataclass(frozen=True)
class SignatureLayer:
    """One signature in a signature manifest: where its payload blob is, and the signature over it."""

    digest: str
    size: int
    signature: bytes


@dataclass(frozen=True)
class SignedPayload:
    payload: bytes
    signature: bytes


def signature_tag(digest: str) -> str:
    """The tag cosign stores ``digest``'s signatures under: ``sha256-<hex>.sig``."""
    algorithm, _, hexdigest = digest.partition(":")
    return f"{algorithm}-{hexdigest}.sig"


def load_public_keys(bundle: str) -> tuple[PublicKey, ...]:
    """The supported public keys of a PEM bundle (checked on write, so anything else here is a bug)."""
    keys = []
    for block in _PUBLIC_KEY.findall(bundle):
        try:
            key = serialization.load_pem_public_key(block.encode())
        except (ValueError, UnsupportedAlgorithm):
            raise SignatureInvalid("a policy key is not a readable PEM public key") from None
        if not isinstance(key, PublicKey):
            raise SignatureInvalid(f"a policy key has an unsupported type ({type(key).__name__})")
        keys.append(key)
    if not keys:
        raise SignatureInvalid("the signature policy holds no public key")
    return tuple(keys)


def parse_signature_manifest(body: bytes) -> tuple[SignatureLayer, ...]:
    """The simple-signing layers of a signature manifest, with their decoded signatures."""
    try:
        document = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise SignatureInvalid("malformed signature manifest: not JSON") from None
    layers = document.get("layers") if isinstance(document, dict) else None
    if not isinstance(layers, list):
        raise SignatureInvalid("malformed signature manifest: no layers list")
    signed = [layer for layer in layers if isinstance(layer, dict) and layer.get("mediaType") == SIMPLE_SIGNING]
    if not signed:
        raise SignatureInvalid(f"malformed signature manifest: no {SIMPLE_SIGNING} layer")
    if len(signed) > MAX_SIGNATURES:
        raise SignatureInvalid(f"the image has {len(signed)} signatures; at most {MAX_SIGNATURES} are checked")
    return tuple(_signature_layer(layer) for layer in signed)


def _signature_layer(layer: dict[str, Any]) -> SignatureLayer:
    digest, size = layer.get("digest"), layer.get("size")
    if not isinstance(digest, str) or not SHA256_DIGEST.match(digest):
        raise SignatureInvalid("malformed signature manifest: a layer has no sha256 digest")
    if not isinstance(size, int) or isinstance(size, bool) or size < 0:
        raise SignatureInvalid(f"malformed signature manifest: layer {digest} has no valid size")
    annotations = layer.get("annotations")
    encoded = annotations.get(SIGNATURE_ANNOTATION) if isinstance(annotations, dict) else None
    if not isinstance(encoded, str) or not encoded or len(encoded) > MAX_SIGNATURE_CHARS:
        raise SignatureInvalid(f"malformed signature manifest: layer {digest} has no {SIGNATURE_ANNOTATION}")
    try:
        signature = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise SignatureInvalid(f"malformed signature manifest: the signature of {digest} is not base64") from None
    return SignatureLayer(digest=digest, size=size, signature=signature)


def key_fingerprint(key: PublicKey) -> str:
    """``sha256:<hex>`` of the key's DER SubjectPublicKeyInfo: which key verified, without the key itself."""
    der = key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return "sha256:" + hashlib.sha256(der).hexdigest()


def verify_signatures(signatures: Sequence[SignedPayload], keys: Iterable[PublicKey], image_digest: str) -> PublicKey:
    """Return the key by which one signature verifies, with a payload that names ``image_digest``; else raise.

    The error says what was wrong with the most nearly valid signature: a payload for another image
    or a malformed payload (both signed by a trusted key), else that no trusted key signed any."""
    keys = tuple(keys)
    if not signatures:
        raise SignatureInvalid(f"no cosign signature found for {image_digest} (no {signature_tag(image_digest)} tag)")
    problems: list[str] = []
    for signed in signatures:
        key = next((key for key in keys if _verifies(key, signed)), None)
        if key is None:
            continue
        problem = _payload_problem(signed.payload, image_digest)
        if problem is None:
            return key
        problems.append(problem)
    if problems:
        raise SignatureInvalid(problems[0])
    count = f"{len(signatures)} signature{'s' if len(signatures) != 1 else ''}"
    raise SignatureInvalid(
        f"no signature by a trusted key: {count} of {image_digest} checked against {len(keys)} "
        f"key{'s' if len(keys) != 1 else ''}"
    )


def _verifies(key: PublicKey, signed: SignedPayload) -> bool:
    try:
        if isinstance(key, ec.EllipticCurvePublicKey):
            key.verify(signed.signature, signed.payload, ec.ECDSA(hashes.SHA256()))
        elif isinstance(key, rsa.RSAPublicKey):
            key.verify(signed.signature, signed.payload, padding.PKCS1v15(), hashes.SHA256())
        else:
            key.verify(signed.signature, signed.payload)
    except (InvalidSignature, ValueError):
        return False
    return True


def _payload_problem(payload: bytes, image_digest: str) -> str | None:
    """Why a trusted payload does not bind ``image_digest`` (None when it does)."""
    try:
        document = json.loads(payload)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return "malformed signed payload: not JSON"
    critical = document.get("critical") if isinstance(document, dict) else None
    if not isinstance(critical, dict):
        return "malformed signed payload: no 'critical' object"
    if critical.get("type") != SIGNATURE_TYPE:
        return f"malformed signed payload: critical.type is not {SIGNATURE_TYPE!r}"
    image = critical.get("image")
    named = image.get("docker-manifest-digest") if isinstance(image, dict) else None
    if not isinstance(named, str):
        return "malformed signed payload: no critical.image.docker-manifest-digest"
    if named != image_digest:
        return f"payload digest mismatch: the signed payload names {named[:80]}, not the image {image_digest}"
    return None
