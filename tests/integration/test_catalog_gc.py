"""Content cleanup: prompt removal on delete, the GC sweep with its grace period and lock, and the gauges.

The sweep runs on each store in a test of its own (each ages entries its own way); the rest run on both.
"""

from __future__ import annotations

import os
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.db import connections, transaction
from django.test import Client

from catalogs import cleanup, store
from catalogs.models import Catalog
from controlplane.metrics import scrape_registry
from controlplane.scrape import scraped
from tests.fixtures.registry import stored_content
from tests.waiting import wait_until

pytestmark = pytest.mark.integration

NOW = datetime(2026, 3, 4, tzinfo=UTC)


def age(digest: str, seconds: float) -> None:
    past = time.time() - seconds
    os.utime(store.get().content_dir(digest), (past, past))  # type: ignore[attr-defined]


def has(digest: str) -> bool:
    return store.get().has(digest)


def modified(digest: str) -> float:
    """When the store says ``digest``'s entry was written."""
    return next(entry.modified for entry in store.get().entries() if entry.digest == digest)


def empty_entry() -> str:
    """An entry of empty objects, written now (so young), under a digest no fixture has."""
    content, digest = store.get(), "sha256:" + "f" * 64
    with content.staging_dir() as staged:
        for name in store.ENTRY_FILES:
            (staged / name).write_bytes(b"")
        content.write_entry(staged, digest)
    return digest


def gauge(name: str) -> float:
    value = scrape_registry(scraped()).get_sample_value(name)
    assert value is not None, name
    return value


@pytest.mark.django_db
def test_sweep_removes_old_orphans_only(catalog_store: Path, settings: object) -> None:
    settings.CATALOG_GC_GRACE_SECONDS = 60  # type: ignore[attr-defined]
    live, old_orphan, young_orphan = stored_content("v1"), stored_content("v2"), None
    Catalog.objects.create(name="live", image_ref="r.io/a:v1", content_digest=live, last_unpacked=NOW)
    age(live, 3600)
    age(old_orphan, 3600)
    young_orphan = empty_entry()
    (catalog_store / "work" / "crashed").mkdir(parents=True)
    os.utime(catalog_store / "work" / "crashed", (0, 0))

    assert (gauge("catalogs_known"), gauge("catalog_content_entries"), gauge("catalog_content_orphans")) == (1, 3, 2)

    result = cleanup.sweep()

    assert result.removed == (old_orphan,) and result.kept == 2 and result.failures == 0
    assert has(live) and has(young_orphan) and not has(old_orphan)
    assert not (catalog_store / "work" / "crashed").exists()
    assert (gauge("catalogs_known"), gauge("catalog_content_entries"), gauge("catalog_content_orphans")) == (1, 2, 1)
    metrics = Client().get("/metrics")
    assert metrics.status_code == 200
    assert b"catalog_content_orphans 1.0" in metrics.content
    assert b"catalog_content_cleanup_failures_total" in metrics.content


@pytest.mark.django_db
def test_failed_removal_is_counted(content_store: str, settings: object, monkeypatch: pytest.MonkeyPatch) -> None:
    settings.CATALOG_GC_GRACE_SECONDS = 0  # type: ignore[attr-defined]
    orphan = stored_content("v1")
    before = gauge("catalog_content_cleanup_failures_total")

    def refuse(self: object, digest: str) -> None:
        raise PermissionError("read-only store")

    monkeypatch.setattr(type(store.get()), "remove", refuse)
    assert cleanup.sweep().failures == 1
    assert gauge("catalog_content_cleanup_failures_total") == before + 1
    assert has(orphan)


@pytest.mark.django_db
def test_delete_removes_content_after_commit_unless_shared(
    content_store: str, django_capture_on_commit_callbacks, admin_api
) -> None:
    shared, own = stored_content("v1"), stored_content("v2")
    first = Catalog.objects.create(name="first", image_ref="r.io/a:v1", content_digest=shared, last_unpacked=NOW)
    Catalog.objects.create(name="second", image_ref="r.io/b:v1", content_digest=shared, last_unpacked=NOW)
    third = Catalog.objects.create(name="third", image_ref="r.io/c:v1", content_digest=own, last_unpacked=NOW)

    with django_capture_on_commit_callbacks(execute=True):
        assert admin_api.delete(f"/api/v1/catalogs/{third.pk}/").status_code == 204
        assert has(own)  # still there until the delete commits
    assert not has(own)
    assert Client().get("/catalogs/third/api/v1/all").status_code == 404

    with django_capture_on_commit_callbacks(execute=True):
        first.delete()
    assert has(shared)


@pytest.mark.django_db(transaction=True)
def test_gc_waits_for_an_in_flight_switch(content_store: str, settings: object) -> None:
    """A worker holding the content lock while it points a new catalog at an entry wins over the GC."""
    settings.CATALOG_GC_GRACE_SECONDS = 0  # type: ignore[attr-defined]
    digest = stored_content("v1")
    catalog = Catalog.objects.create(name="new", image_ref="r.io/a:v1")
    locked, gc_done = threading.Event(), threading.Event()

    def switch() -> None:
        try:
            with transaction.atomic():
                cleanup.lock_content(digest)
                Catalog.objects.filter(pk=catalog.pk).update(content_digest=digest, last_unpacked=NOW)
                locked.set()
                gc_done.wait(0.5)  # the GC is blocked on the lock meanwhile
        finally:
            connections.close_all()

    worker = threading.Thread(target=switch)
    worker.start()
    assert locked.wait(10)
    removed = cleanup.remove_if_unreferenced(digest)
    gc_done.set()
    worker.join()

    assert removed is False and has(digest)
    assert Client().get("/catalogs/new/api/v1/all").status_code == 200


@pytest.mark.django_db
def test_sweep_on_s3_goes_by_the_markers_last_modified(s3_store: object, settings: object) -> None:
    """S3 ages cannot be set, so the sweep's clock is: half a second before the young orphan is past the grace, the
    old orphan (written a whole second earlier; LastModified has whole seconds) is removed, the live and young kept."""
    settings.CATALOG_GC_GRACE_SECONDS = 2  # type: ignore[attr-defined]
    live, old_orphan = stored_content("v1"), stored_content("v2")
    Catalog.objects.create(name="live", image_ref="r.io/a:v1", content_digest=live, last_unpacked=NOW)
    old_written = modified(old_orphan)
    wait_until(lambda: time.time() >= old_written + 1, "the next whole second", timeout=5, interval=0.05)
    young_orphan = empty_entry()
    assert (gauge("catalog_content_entries"), gauge("catalog_content_orphans")) == (3, 2)

    result = cleanup.sweep(now=modified(young_orphan) + 2 - 0.5)  # the young orphan is half a second too young

    assert result.removed == (old_orphan,) and result.kept == 2 and result.failures == 0
    assert has(live) and has(young_orphan) and not has(old_orphan)
    assert store.get().open(old_orphan, store.ALL_FILE) is None  # the objects went too, not only the marker
    assert (gauge("catalog_content_entries"), gauge("catalog_content_orphans")) == (2, 1)
    assert cleanup.remove_if_unreferenced(live) is False and has(live)
