"""Cosign simple-signing verification (pure): key types, the signature manifest, payload claims."""

from __future__ import annotations

import base64
import json

import pytest
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

from tests.fixtures.registry import SigningKey, cosign_signature, public_pem, simple_signing_payload
from workers.drivers.cosign import (
    MAX_SIGNATURES,
    SIMPLE_SIGNING,
    SignatureInvalid,
    SignedPayload,
    load_public_keys,
    parse_signature_manifest,
    signature_tag,
    verify_signatures,
)

DIGEST = "sha256:" + "a" * 64
OTHER = "sha256:" + "b" * 64
P256 = ec.generate_private_key(ec.SECP256R1())
KEYS: dict[str, SigningKey] = {
    "p256": P256,
    "p384": ec.generate_private_key(ec.SECP384R1()),
    "rsa": rsa.generate_private_key(public_exponent=65537, key_size=2048),
    "ed25519": ed25519.Ed25519PrivateKey.generate(),
}


def signed(key: SigningKey, payload: bytes) -> SignedPayload:
    return SignedPayload(payload=payload, signature=base64.b64decode(cosign_signature(key, payload)))


def trusting(*keys: SigningKey) -> tuple:
    return load_public_keys("\n".join(public_pem(key) for key in keys))


def test_signature_tag() -> None:
    assert signature_tag(DIGEST) == "sha256-" + "a" * 64 + ".sig"


@pytest.mark.parametrize("kind", sorted(KEYS))
def test_every_supported_key_type_verifies(kind: str) -> None:
    key = KEYS[kind]
    verify_signatures([signed(key, simple_signing_payload("r/x", DIGEST))], trusting(key), DIGEST)


def test_one_good_signature_among_several_by_any_key_suffices() -> None:
    payload = simple_signing_payload("r/x", DIGEST)
    signatures = [
        signed(KEYS["rsa"], payload),
        signed(P256, simple_signing_payload("r/x", OTHER)),
        signed(P256, payload),
    ]
    verify_signatures(signatures, trusting(KEYS["ed25519"], P256), DIGEST)


def edited(payload: bytes) -> SignedPayload:
    good = signed(P256, payload)
    return SignedPayload(payload=payload.replace(b"r/x", b"r/y"), signature=good.signature)


@pytest.mark.parametrize(
    ("signatures", "text"),
    [
        ([], "no cosign signature found"),
        ([signed(KEYS["p384"], simple_signing_payload("r/x", DIGEST))], "no signature by a trusted key: 1 signature"),
        ([edited(simple_signing_payload("r/x", DIGEST))], "no signature by a trusted key"),
        ([SignedPayload(simple_signing_payload("r/x", DIGEST), b"\x00" * 64)], "no signature by a trusted key"),
        ([signed(P256, simple_signing_payload("r/x", OTHER))], f"names {OTHER}, not the image {DIGEST}"),
        ([signed(P256, simple_signing_payload("r/x", DIGEST, type_="other"))], "critical.type is not"),
        ([signed(P256, b"not json")], "malformed signed payload: not JSON"),
        (
            [signed(P256, json.dumps({"critical": {"type": "cosign container image signature"}}).encode())],
            "no critical.image.docker-manifest-digest",
        ),
        ([signed(P256, b"[]")], "no 'critical' object"),
    ],
    ids=[
        "none",
        "wrong-key",
        "payload-edited",
        "garbage-signature",
        "other-image",
        "wrong-type",
        "not-json",
        "no-digest",
        "not-object",
    ],
)
def test_verification_failures_say_why(signatures: list[SignedPayload], text: str) -> None:
    with pytest.raises(SignatureInvalid, match=text.replace("(", r"\(")):
        verify_signatures(signatures, trusting(P256), DIGEST)


def layer(**overrides: object) -> dict:
    return {
        "mediaType": SIMPLE_SIGNING,
        "digest": DIGEST,
        "size": 10,
        "annotations": {"dev.cosignproject.cosign/signature": base64.b64encode(b"sig").decode()},
        **overrides,
    }


def test_parse_signature_manifest_keeps_simple_signing_layers() -> None:
    body = json.dumps({"layers": [layer(), layer(mediaType="application/other", digest=OTHER)]}).encode()
    (only,) = parse_signature_manifest(body)
    assert (only.digest, only.size, only.signature) == (DIGEST, 10, b"sig")


@pytest.mark.parametrize(
    ("body", "text"),
    [
        (b"{", "not JSON"),
        (b'{"layers": {}}', "no layers list"),
        (json.dumps({"layers": [layer(mediaType="x")]}).encode(), "no application/vnd.dev.cosign"),
        (json.dumps({"layers": [layer(digest="md5:x")]}).encode(), "no sha256 digest"),
        (json.dumps({"layers": [layer(size=True)]}).encode(), "no valid size"),
        (json.dumps({"layers": [layer(annotations={})]}).encode(), "has no dev.cosignproject.cosign/signature"),
        (
            json.dumps({"layers": [layer(annotations={"dev.cosignproject.cosign/signature": "@@"})]}).encode(),
            "not base64",
        ),
        (json.dumps({"layers": [layer()] * (MAX_SIGNATURES + 1)}).encode(), "at most 32 are checked"),
    ],
)
def test_malformed_signature_manifests(body: bytes, text: str) -> None:
    with pytest.raises(SignatureInvalid, match=text):
        parse_signature_manifest(body)


def test_load_public_keys_refuses_an_empty_policy() -> None:
    with pytest.raises(SignatureInvalid, match="holds no public key"):
        load_public_keys("")
    assert len(trusting(P256, KEYS["rsa"])) == 2
