"""The catalog signature policy in the API and the console: cosign public keys, checked on every write."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import dsa, ec, ed448, ed25519, rsa
from django.test import Client

from catalogs.models import Catalog
from controlplane.signing_keys import MAX_KEYS, MAX_KEYS_CHARS
from tests.fixtures.registry import public_pem

pytestmark = pytest.mark.django_db

FIELD = "signature_policy.public_keys"
P256 = public_pem(ec.generate_private_key(ec.SECP256R1()))
RSA = public_pem(rsa.generate_private_key(public_exponent=65537, key_size=2048))
ED25519 = public_pem(ed25519.Ed25519PrivateKey.generate())


def spki(key: object) -> str:
    return key.public_bytes(  # type: ignore[attr-defined]
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    ).decode()


def private_pem() -> str:
    return (
        ec.generate_private_key(ec.SECP256R1())
        .private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        .decode()
    )


def body(**overrides: object) -> dict:
    return {"name": "signed", "source": {"image": {"ref": "quay.io/operatorhubio/catalog:latest"}}, **overrides}


def test_keys_are_stored_shown_changed_and_cleared(admin_api) -> None:
    keys = P256 + RSA + ED25519
    response = admin_api.post("/api/v1/catalogs/", body(signature_policy={"public_keys": keys}), format="json")
    assert response.status_code == 201, response.content
    created = response.json()
    assert created["signature_policy"] == {"public_keys": keys.strip()}
    assert created["status"]["signature_verified"] is False
    url = f"/api/v1/catalogs/{created['id']}/"

    changed = admin_api.patch(url, {"signature_policy": {"public_keys": P256}}, format="json").json()
    assert changed["generation"] == 2 and changed["signature_policy"] == {"public_keys": P256.strip()}
    cleared = admin_api.patch(url, {"signature_policy": None}, format="json").json()
    assert cleared["generation"] == 3 and cleared["signature_policy"] is None
    assert Catalog.objects.get().signature_keys == ""


@pytest.mark.parametrize(
    ("keys", "text"),
    [
        ("hello", "Expected one or more PEM public keys"),
        (P256 + "trailing words", "and nothing else"),
        (P256.replace("BEGIN PUBLIC KEY-----\n", "BEGIN PUBLIC KEY-----\n!!"), "not a readable PEM public key"),
        (P256[:60] + "A" * 40 + "\n-----END PUBLIC KEY-----", "not a readable PEM public key"),
        (private_pem(), "Key 1 is a private key"),
        (P256 + private_pem(), "Key 2 is a private key"),
        (
            "-----BEGIN ENCRYPTED SIGSTORE PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED SIGSTORE PRIVATE KEY-----",
            "is a private key",
        ),
        ("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----", "not a public key"),
        (spki(dsa.generate_private_key(2048).public_key()), "(DSA) is not supported"),
        (spki(ec.generate_private_key(ec.SECP256K1()).public_key()), "(ECDSA secp256k1) is not supported"),
        (
            spki(rsa.generate_private_key(public_exponent=65537, key_size=1024).public_key()),
            "(RSA of 1024 bits) is not supported",
        ),
        (spki(ed448.Ed448PrivateKey.generate().public_key()), "(Ed448) is not supported"),
        (P256 + RSA + P256, "Key 3 repeats key 1"),
        (P256 * (MAX_KEYS + 1), f"At most {MAX_KEYS} public keys"),
        (
            f"-----BEGIN PUBLIC KEY-----\n{'A' * MAX_KEYS_CHARS}\n-----END PUBLIC KEY-----",
            f"{MAX_KEYS_CHARS} characters",
        ),
    ],
    ids=[
        "garbage",
        "trailing",
        "bad-base64",
        "bad-der",
        "private",
        "private-second",
        "cosign-private",
        "certificate",
        "dsa",
        "secp256k1",
        "rsa-1024",
        "ed448",
        "duplicate",
        "too-many",
        "too-large",
    ],
)
def test_bad_keys_are_400(admin_api, keys: str, text: str) -> None:
    response = admin_api.post("/api/v1/catalogs/", body(signature_policy={"public_keys": keys}), format="json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert text.lower() in " ".join(error["fields"][FIELD]).lower(), error
    assert "PRIVATE KEY-----" not in response.content.decode() and not Catalog.objects.exists()


@pytest.mark.parametrize("policy", [{}, {"public_keys": 5}, "keys", {"public_keys": ""}, {"public_keys": None}])
def test_malformed_policy_objects_are_400(admin_api, policy: object) -> None:
    response = admin_api.post("/api/v1/catalogs/", body(signature_policy=policy), format="json")
    assert response.status_code == 400, response.content
    assert not Catalog.objects.exists()


def test_console_form_validates_keys(admin_user) -> None:
    console = Client()
    console.force_login(admin_user)
    form = {
        "name": "console",
        "image_ref": "quay.io/operatorhubio/catalog:latest",
        "priority": "0",
        "availability_mode": "Available",
        "labels": "{}",
        "signature_keys": private_pem(),
    }
    refused = console.post("/admin/catalogs/catalog/add/", form)
    assert refused.status_code == 200 and b"is a private key" in refused.content and not Catalog.objects.exists()

    accepted = console.post("/admin/catalogs/catalog/add/", {**form, "signature_keys": ED25519})
    assert accepted.status_code == 302, accepted.content[:2000]
    assert Catalog.objects.get().signature_keys == ED25519.strip()
