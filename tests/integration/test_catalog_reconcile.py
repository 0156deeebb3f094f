"""The catalog reconciler against a real registry and PostgreSQL: pull, unpack, store, switch, fail safely."""

from __future__ import annotations

import gzip
import hashlib
import os
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone

from catalogs import store
from catalogs.models import Catalog, CatalogEvent
from tests.fixtures.registry import (
    CONFIGS_LABEL,
    PASSWORD,
    USERNAME,
    Registry,
    dir_entry,
    expected_lines,
    fbc_layer,
    file_entry,
    link_entry,
    tar_bytes,
)
from workers.reconcile.catalog import loop, persist
from workers.reconcile.catalog.outcome import CatalogOutcome

pytestmark = [pytest.mark.integration, pytest.mark.django_db]


def reconcile(catalog: Catalog) -> CatalogOutcome:
    return loop.reconcile(str(catalog.pk), now=timezone.now())


def conditions(catalog: Catalog) -> dict[str, tuple[str, str]]:
    catalog.refresh_from_db()
    return {c["type"]: (c["status"], c["reason"]) for c in catalog.conditions}


def message(catalog: Catalog, type_: str = "Progressing") -> str:
    return next(c["message"] for c in catalog.conditions if c["type"] == type_)


def served(name: str) -> bytes:
    response = Client().get(f"/catalogs/{name}/api/v1/all")
    assert response.status_code == 200, response.content
    return b"".join(response.streaming_content)


def store_leftovers(root: Path) -> list[str]:
    """Anything in the store besides complete content entries."""
    return [str(p.relative_to(root)) for area in ("staging", "work") for p in (root / area).glob("*")]


def test_tag_is_resolved_pulled_and_served(registry: Registry, repository: str, catalog_store: Path) -> None:
    digest = registry.push_image(repository, "v1", [fbc_layer("v1")])
    catalog = Catalog.objects.create(name="operators", image_ref=f"{registry.host}/{repository}:v1")

    assert reconcile(catalog) == CatalogOutcome()

    assert conditions(catalog) == {"Progressing": ("True", "Succeeded"), "Serving": ("True", "Available")}
    assert catalog.resolved_ref == f"{registry.host}/{repository}@{digest}"
    assert catalog.base_url == "http://127.0.0.1:8000/catalogs/operators"
    assert catalog.last_unpacked is not None and catalog.observed_generation == catalog.generation
    assert served("operators") == expected_lines("v1")
    assert store.get().has(catalog.content_digest) and store_leftovers(catalog_store) == []
    assert CatalogEvent.objects.filter(catalog=catalog, reason="Unpacked").count() == 1


def test_unchanged_digest_with_content_does_no_work(registry: Registry, repository: str, catalog_store: Path) -> None:
    registry.push_image(repository, "v1", [fbc_layer("v1")])
    catalog = Catalog.objects.create(name="steady", image_ref=f"{registry.host}/{repository}:v1")
    reconcile(catalog)
    catalog.refresh_from_db()
    unpacked_at = catalog.last_unpacked

    reconcile(catalog)

    catalog.refresh_from_db()
    assert catalog.last_unpacked == unpacked_at
    assert CatalogEvent.objects.filter(catalog=catalog).count() == 1


def test_new_tag_version_switches_content(registry: Registry, repository: str, catalog_store: Path) -> None:
    registry.push_image(repository, "latest", [fbc_layer("v1")])
    catalog = Catalog.objects.create(name="moving", image_ref=f"{registry.host}/{repository}:latest")
    reconcile(catalog)
    catalog.refresh_from_db()
    before = catalog.resolved_ref

    registry.push_image(repository, "latest", [fbc_layer("v2")])
    reconcile(catalog)

    catalog.refresh_from_db()
    assert catalog.resolved_ref != before
    assert served("moving") == expected_lines("v2")


def test_index_over_tls_with_basic_auth(secure_registry: Registry, repository: str, catalog_store: Path) -> None:
    digest = secure_registry.push_image(repository, "v1", [fbc_layer("v1")], index=True)
    catalog = Catalog.objects.create(
        name="secure",
        image_ref=f"{secure_registry.host}/{repository}:v1",
        ca=secure_registry.ca_pem,
        pull_username=USERNAME,
        pull_password=PASSWORD,
    )
    reconcile(catalog)
    assert conditions(catalog)["Serving"] == ("True", "Available")
    assert catalog.resolved_ref.endswith(digest)
    assert served("secure") == expected_lines("v1")


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"pull_username": USERNAME, "pull_password": "wrong-password-123"}, "denied"),
        ({}, "requires credentials"),
        ({"ca": "", "pull_username": USERNAME, "pull_password": PASSWORD}, "registry"),
    ],
    ids=["bad-password", "no-credentials", "no-ca"],
)
def test_registry_refusals_retry_without_leaking(
    secure_registry: Registry, repository: str, catalog_store: Path, overrides: dict, expected: str
) -> None:
    secure_registry.push_image(repository, "v1", [fbc_layer("v1")])
    fields = {"ca": secure_registry.ca_pem, **overrides}
    catalog = Catalog.objects.create(name="refused", image_ref=f"{secure_registry.host}/{repository}:v1", **fields)

    result = reconcile(catalog)

    assert result.requeue_after and result.requeue_after > 0
    assert conditions(catalog) == {"Progressing": ("True", "Retrying"), "Serving": ("False", "Unavailable")}
    assert expected in message(catalog) and "wrong-password-123" not in str(catalog.conditions)
    assert catalog.resolved_ref == "" and catalog.base_url == "" and catalog.last_unpacked is None
    response = Client().get("/catalogs/refused/api/v1/all")
    assert response.status_code == 503 and response["Retry-After"]


def test_retry_state_lives_in_the_database_and_resets_on_success(
    secure_registry: Registry, repository: str, catalog_store: Path
) -> None:
    secure_registry.push_image(repository, "v1", [fbc_layer("v1")])
    catalog = Catalog.objects.create(
        name="flaky", image_ref=f"{secure_registry.host}/{repository}:v1", ca=secure_registry.ca_pem
    )  # no credentials: refused until they are set
    first, second = reconcile(catalog), reconcile(catalog)
    catalog.refresh_from_db()
    assert catalog.failure_count == 2 and catalog.next_attempt_at is not None
    assert first.requeue_after is not None and second.requeue_after is not None
    assert 1.5 < second.requeue_after / first.requeue_after < 2.7  # doubled, within the jitter

    catalog.pull_username, catalog.pull_password = USERNAME, PASSWORD
    catalog.save()
    catalog.refresh_from_db()
    assert (catalog.failure_count, catalog.next_attempt_at) == (0, None)  # a spec change is a fresh start
    Catalog.objects.filter(pk=catalog.pk).update(failure_count=3)
    assert reconcile(catalog).requeue_after is None
    catalog.refresh_from_db()
    assert (catalog.failure_count, catalog.next_attempt_at) == (0, None)
    assert conditions(catalog)["Serving"] == ("True", "Available")


def corrupt_blob(registry: Registry, digest: str, data: bytes) -> None:
    """Overwrite a blob in the registry's storage: the registry serves it without re-checking."""
    hexdigest = digest.split(":")[1]
    path = registry.workdir / "data/docker/registry/v2/blobs/sha256" / hexdigest[:2] / hexdigest / "data"
    path.write_bytes(data)


def flip_byte(data: bytes) -> bytes:
    middle = len(data) // 2
    return data[:middle] + bytes([data[middle] ^ 0xFF]) + data[middle + 1 :]


def bad_layer(kind: str) -> bytes:
    good = [dir_entry("configs"), file_entry("configs/c.json", b'{"schema":"olm.package","name":"x"}')]
    return {
        "traversal": lambda: tar_bytes([*good, file_entry("configs/../../../../tmp/catalog-escape", b"x")]),
        "symlink": lambda: tar_bytes(
            [*good, link_entry("configs/out", "../../../../tmp"), file_entry("configs/out/x", b"x")]
        ),
        "not-fbc": lambda: tar_bytes([dir_entry("configs"), file_entry("configs/c.json", b'{"kind": "NotFBC"}')]),
        "corrupt-gzip": lambda: b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + os.urandom(256),
        "bomb": lambda: tar_bytes([*good, file_entry("configs/zeros", b"\0" * (3 * 1024 * 1024))]),
        "huge": lambda: tar_bytes([*good, file_entry("configs/noise", os.urandom(96 * 1024))]),
    }[kind]()


@pytest.mark.parametrize(
    ("kind", "reason", "text"),
    [
        ("missing-label", "Blocked", "no operators.operatorframework.io.index.configs.v1 label"),
        ("not-fbc", "Blocked", "needs a non-empty string 'schema'"),
        ("traversal", "Blocked", "escapes the image root"),
        ("symlink", "Blocked", "points outside the image"),
        ("huge", "Blocked", "the limit is"),
        ("bomb", "Blocked", "unpacks to more than"),
        ("corrupt-gzip", "Blocked", "not a readable tar archive"),
        ("digest-mismatch", "Retrying", "hashed to"),
    ],
)
def test_bad_images_keep_previous_content(
    registry: Registry, repository: str, catalog_store: Path, settings: object, kind: str, reason: str, text: str
) -> None:
    settings.CATALOG_MAX_LAYER_BYTES = 64 * 1024  # type: ignore[attr-defined]
    settings.CATALOG_MAX_UNPACKED_BYTES = 2 * 1024 * 1024  # type: ignore[attr-defined]
    registry.push_image(repository, "v1", [fbc_layer("v1")])
    catalog = Catalog.objects.create(name="guarded", image_ref=f"{registry.host}/{repository}:v1")
    reconcile(catalog)
    catalog.refresh_from_db()
    good_ref, good_content = catalog.resolved_ref, catalog.content_digest

    if kind == "missing-label":
        registry.push_image(repository, "v1", [fbc_layer("v1")], labels={})
    elif kind == "digest-mismatch":
        # A layer no other test pushes: the registry is the session's, and a corrupted blob is corrupt for all.
        layer = fbc_layer("v2", prefix="digest-mismatch")
        registry.push_image(repository, "v1", [layer])
        corrupt_blob(registry, "sha256:" + hashlib.sha256(layer).hexdigest(), flip_byte(layer))
    else:
        registry.push_image(repository, "v1", [bad_layer(kind)])

    result = reconcile(catalog)

    status, expected_status = conditions(catalog), "False" if reason == "Blocked" else "True"
    assert status == {"Progressing": (expected_status, reason), "Serving": ("True", "Available")}
    assert text in message(catalog)
    assert (result.requeue_after is None) is (reason == "Blocked")
    assert (catalog.resolved_ref, catalog.content_digest) == (good_ref, good_content)
    assert served("guarded") == expected_lines("v1")
    assert not Path("/tmp/catalog-escape").exists() and not Path("/tmp/x").exists()
    assert store_leftovers(catalog_store) == []


def test_unavailable_mode_drops_content(
    registry: Registry, repository: str, catalog_store: Path, django_capture_on_commit_callbacks
) -> None:
    registry.push_image(repository, "v1", [fbc_layer("v1")])
    catalog = Catalog.objects.create(name="paused", image_ref=f"{registry.host}/{repository}:v1")
    reconcile(catalog)
    catalog.refresh_from_db()
    digest = catalog.content_digest

    catalog.availability_mode = "Unavailable"
    catalog.save()
    with django_capture_on_commit_callbacks(execute=True):
        reconcile(catalog)

    assert conditions(catalog) == {
        "Progressing": ("True", "Succeeded"),
        "Serving": ("False", "UserSpecifiedUnavailable"),
    }
    assert (catalog.resolved_ref, catalog.content_digest, catalog.last_unpacked) == ("", "", None)
    assert store.get().has(digest)  # no longer served, but kept while the history names it (test_catalog_history)
    assert Client().get("/catalogs/paused/api/v1/all").status_code == 404


def test_save_is_conditional_on_generation(registry: Registry, repository: str, catalog_store: Path) -> None:
    registry.push_image(repository, "v1", [fbc_layer("v1")])
    catalog = Catalog.objects.create(name="raced", image_ref=f"{registry.host}/{repository}:v1")
    request = persist.load(str(catalog.pk))
    catalog.priority = 5
    catalog.save()  # the spec changes while the pass runs

    from workers.reconcile.catalog import unpack
    from workers.reconcile.catalog.store_io import StoreIo

    step = unpack.run(request, StoreIo(), registry.push_image(repository, "v1", [fbc_layer("v1")]), timezone.now())
    assert persist.save(request, step, timezone.now()) is False
    catalog.refresh_from_db()
    assert catalog.content_digest == "" and catalog.conditions == []
    assert reconcile(catalog) == CatalogOutcome()
    assert conditions(catalog)["Serving"] == ("True", "Available")


def test_lost_content_is_unpacked_again(registry: Registry, repository: str, catalog_store: Path) -> None:
    registry.push_image(repository, "v1", [fbc_layer("v1")])
    catalog = Catalog.objects.create(name="healing", image_ref=f"{registry.host}/{repository}:v1")
    reconcile(catalog)
    catalog.refresh_from_db()
    store.get().remove(catalog.content_digest)
    assert Client().get("/catalogs/healing/api/v1/all").status_code == 503

    reconcile(catalog)

    assert served("healing") == expected_lines("v1")
    assert gzip.decompress(store.get().read(catalog.content_digest, store.ALL_GZ_FILE)) == (expected_lines("v1"))


def test_missing_label_on_first_pull_is_blocked_and_not_serving(
    registry: Registry, repository: str, catalog_store: Path
) -> None:
    registry.push_image(repository, "v1", [fbc_layer("v1")], labels={"other": "label"})
    catalog = Catalog.objects.create(name="nolabel", image_ref=f"{registry.host}/{repository}:v1")
    assert reconcile(catalog).requeue_after is None
    assert conditions(catalog) == {"Progressing": ("False", "Blocked"), "Serving": ("False", "Unavailable")}
    assert CONFIGS_LABEL in message(catalog)
