"""Cosign signature policies against the real registry: only signed images are unpacked, failures block safely."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from django.test import Client
from django.utils import timezone

from catalogs.models import Catalog, CatalogEvent
from tests.fixtures.registry import (
    Registry,
    cosign_signature,
    expected_lines,
    fbc_layer,
    public_pem,
    simple_signing_payload,
)
from workers.reconcile.catalog import loop
from workers.reconcile.catalog.outcome import CatalogOutcome

pytestmark = [pytest.mark.integration, pytest.mark.django_db]


@pytest.fixture(scope="module")
def trusted() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())  # cosign generate-key-pair's default


@pytest.fixture(scope="module")
def stranger() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


def reconcile(catalog: Catalog) -> CatalogOutcome:
    result = loop.reconcile(str(catalog.pk), now=timezone.now())
    catalog.refresh_from_db()
    return result


def progressing(catalog: Catalog) -> tuple[str, str, str]:
    found = next(c for c in catalog.conditions if c["type"] == "Progressing")
    return found["status"], found["reason"], found["message"]


def serving(catalog: Catalog) -> tuple[str, str]:
    found = next(c for c in catalog.conditions if c["type"] == "Serving")
    return found["status"], found["reason"]


def served(name: str) -> bytes:
    response = Client().get(f"/catalogs/{name}/api/v1/all")
    assert response.status_code == 200, response.content
    return b"".join(response.streaming_content)


def blob_path(registry: Registry, digest: str) -> Path:
    hexdigest = digest.split(":")[1]
    return registry.workdir / "data/docker/registry/v2/blobs/sha256" / hexdigest[:2] / hexdigest / "data"


def test_signed_image_is_verified_and_served(
    registry: Registry,
    repository: str,
    catalog_store: Path,
    trusted: ec.EllipticCurvePrivateKey,
    stranger: ec.EllipticCurvePrivateKey,
) -> None:
    digest = registry.push_image(repository, "v1", [fbc_layer("v1")], index=True)
    registry.sign(repository, digest, trusted)  # the tag's digest (here an index), as `cosign sign` signs it
    keys = public_pem(stranger) + public_pem(trusted)  # any one policy key suffices
    catalog = Catalog.objects.create(name="signed", image_ref=f"{registry.host}/{repository}:v1", signature_keys=keys)

    assert reconcile(catalog) == CatalogOutcome()

    assert progressing(catalog)[:2] == ("True", "Succeeded") and serving(catalog) == ("True", "Available")
    assert catalog.signature_verified and served("signed") == expected_lines("v1")
    event = CatalogEvent.objects.get(catalog=catalog, reason="Unpacked")
    assert event.message.endswith("its signature verified")


@pytest.mark.parametrize(
    ("case", "text"),
    [
        ("missing", "no cosign signature found for sha256:"),
        ("wrong-key", "no signature by a trusted key: 1 signature of sha256:"),
        ("payload-edited", "no signature by a trusted key"),
        ("other-image", "payload digest mismatch: the signed payload names sha256:"),
    ],
    ids=["missing", "wrong-key", "payload-edited", "other-image"],
)
def test_bad_signature_blocks_before_pulling_and_keeps_old_content(
    registry: Registry,
    repository: str,
    catalog_store: Path,
    trusted: ec.EllipticCurvePrivateKey,
    stranger: ec.EllipticCurvePrivateKey,
    case: str,
    text: str,
) -> None:
    old = registry.push_image(repository, "v1", [fbc_layer("v1")])
    registry.sign(repository, old, trusted)
    catalog = Catalog.objects.create(
        name="guarded", image_ref=f"{registry.host}/{repository}:v1", signature_keys=public_pem(trusted)
    )
    reconcile(catalog)
    good = (catalog.resolved_ref, catalog.content_digest, catalog.last_unpacked)

    # A layer no other test pushes (the registry is the session's: a blob broken here is broken for every test).
    layer = fbc_layer("v2", prefix=f"unpulled-{case}")
    new = registry.push_image(repository, "v1", [layer])
    # A layer that does not match its digest: pulling it would fail as Retrying, so Blocked shows it was not pulled.
    blob_path(registry, "sha256:" + hashlib.sha256(layer).hexdigest()).write_bytes(b"not the layer")
    if case == "wrong-key":
        registry.sign(repository, new, stranger)
    elif case == "payload-edited":
        payload = simple_signing_payload(f"{registry.host}/{repository}", old)
        signature = cosign_signature(trusted, payload)
        registry.push_signatures(repository, new, [(payload.replace(old.encode(), new.encode()), signature)])
    elif case == "other-image":
        payload = simple_signing_payload(f"{registry.host}/{repository}", old)
        registry.push_signatures(repository, new, [(payload, cosign_signature(trusted, payload))])

    result = reconcile(catalog)

    status, reason, message = progressing(catalog)
    assert (status, reason) == ("False", "SignatureInvalid") and text in message, message
    assert result.requeue_after is None  # terminal: the same digest will not verify on a retry
    assert serving(catalog) == ("True", "Available") and served("guarded") == expected_lines("v1")
    assert (catalog.resolved_ref, catalog.content_digest, catalog.last_unpacked) == good
    assert CatalogEvent.objects.filter(catalog=catalog, reason="SignatureInvalid", type="Warning").count() == 1


def test_policy_added_later_verifies_served_content_without_pulling_again(
    registry: Registry,
    repository: str,
    catalog_store: Path,
    trusted: ec.EllipticCurvePrivateKey,
) -> None:
    digest = registry.push_image(repository, "v1", [fbc_layer("v1")])
    catalog = Catalog.objects.create(name="late", image_ref=f"{registry.host}/{repository}:v1")
    reconcile(catalog)
    unpacked_at = catalog.last_unpacked
    assert not catalog.signature_verified

    catalog.signature_keys = public_pem(trusted)
    catalog.save()
    reconcile(catalog)
    assert progressing(catalog)[:2] == ("False", "SignatureInvalid")  # unsigned: reported, still served
    assert served("late") == expected_lines("v1") and not catalog.signature_verified

    registry.sign(repository, digest, trusted)
    reconcile(catalog)
    assert progressing(catalog)[:2] == ("True", "Succeeded") and catalog.signature_verified
    assert catalog.last_unpacked == unpacked_at  # verified in place: the layers were not pulled again
    assert CatalogEvent.objects.filter(catalog=catalog, reason="Verified").count() == 1
