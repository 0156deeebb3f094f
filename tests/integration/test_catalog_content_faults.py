"""The content views under faults, on both stores: a content switch racing the readers, a corrupt index,
and (S3) an entry whose marker was never written."""

from __future__ import annotations

import json
import threading
import time
from datetime import UTC, datetime

import pytest
import redis
from django.conf import settings
from django.test import Client

from catalogs import cleanup, store
from catalogs.models import Catalog
from controlplane.metrics import scrape_registry
from controlplane.scrape import scraped
from tests.fixtures.registry import expected_lines, stored_content
from tests.fixtures.s3 import BUCKET, S3Server, put_raw, s3_client
from tests.ports import free_port

pytestmark = [pytest.mark.integration]

UNPACKED = datetime(2026, 3, 4, 5, 6, 7, tzinfo=UTC)
BODIES = {expected_lines("v1"), expected_lines("v2")}


def body_of(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def broker_messages() -> list[dict]:
    queue = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    return [json.loads(raw)["headers"] for raw in queue.lrange("celery", 0, -1)]


@pytest.mark.django_db(transaction=True)
def test_readers_racing_content_switches_get_200_or_503_never_500(content_store: str) -> None:
    digests = [stored_content("v1"), stored_content("v2")]
    catalog = Catalog.objects.create(
        name="ops", image_ref="r.io/ops:v1", content_digest=digests[0], last_unpacked=UNPACKED
    )
    stop = threading.Event()

    def switch() -> None:
        """Flip the catalog between two entries, discarding the old one right after each switch."""
        from django.db import connections

        n = 0
        while not stop.is_set():
            old, new = digests[n % 2], digests[(n + 1) % 2]
            stored_content("v2" if new == digests[1] else "v1")
            Catalog.objects.filter(pk=catalog.pk).update(content_digest=new)
            store.get().remove(old)
            n += 1
        connections.close_all()

    switcher = threading.Thread(target=switch)
    switcher.start()
    statuses: set[int] = set()
    try:
        for _ in range(150):
            for url in ("/catalogs/ops/api/v1/all", "/catalogs/ops/api/v1/metas?schema=olm.package"):
                response = Client().get(url)
                statuses.add(response.status_code)
                body = body_of(response)
                if response.status_code == 200 and url.endswith("all"):
                    assert body in BODIES
                elif response.status_code == 503:
                    assert response["Retry-After"] and json.loads(body)["error"]["code"] == "unavailable"
    finally:
        stop.set()
        switcher.join()
    assert statuses <= {200, 503} and 200 in statuses


@pytest.mark.django_db(transaction=True)
def test_corrupt_index_is_503_lost_and_reconcile_enqueued(content_store: str) -> None:
    redis.Redis.from_url(settings.CELERY_BROKER_URL).delete("celery")
    digest = stored_content("v1")
    catalog = Catalog.objects.create(name="ops", image_ref="r.io/ops:v1", content_digest=digest, last_unpacked=UNPACKED)
    corrupt = b'{"version": 1, "entries": [[1, 2]'
    if content_store == "fs":
        (store.get().content_dir(digest) / store.INDEX_FILE).write_bytes(corrupt)  # type: ignore[attr-defined]
    else:
        put_raw(f"content/{store.entry_name(digest)}/{store.INDEX_FILE}", corrupt)
    response = Client().get("/catalogs/ops/api/v1/metas?package=etcd")
    assert response.status_code == 503 and int(response["Retry-After"]) > 0
    assert response.json()["error"]["code"] == "unavailable"
    assert not store.get().has(digest)
    catalog.refresh_from_db()
    assert catalog.content_digest == digest  # the worker decides what is served, not the view
    assert [(c["status"], c["reason"]) for c in catalog.conditions if c["type"] == "Serving"] == [
        ("False", "ContentLost"),
    ]
    assert list(catalog.events.values_list("type", "reason")) == [("Warning", "ContentLost")]
    assert [(h["task"], h["argsrepr"]) for h in broker_messages()] == [
        ("workers.tasks.reconcile_catalog", repr([str(catalog.pk)])),
    ]
    again = Client().get("/catalogs/ops/api/v1/all")
    assert again.status_code == 503
    assert len(broker_messages()) == 1  # once per interval


@pytest.mark.django_db
def test_s3_entry_without_its_marker_is_absent_until_collected(s3_store: object) -> None:
    """A writer that died after the objects and before the marker left nothing a reader can see."""
    digest = stored_content("v1")
    content = store.get()
    Catalog.objects.create(name="ops", image_ref="r.io/ops:v1", content_digest=digest, last_unpacked=UNPACKED)
    assert content.has(digest) and Client().get("/catalogs/ops/api/v1/all").status_code == 200
    marker = f"{settings.CATALOG_S3['prefix']}entries/{store.entry_name(digest)}.json"
    s3_client().delete_object(Bucket=BUCKET, Key=marker)

    assert not content.has(digest) and content.stat(digest) is None and content.entries() == []
    for url in ("/catalogs/ops/api/v1/all", "/catalogs/ops/api/v1/metas?package=etcd"):
        assert Client().get(url).status_code == 503
    assert content.remove_stale(3600) == 0  # young objects may belong to a writer still at work
    assert content.remove_stale(3600, now=time.time() + 7200) == 1
    prefix = f"{settings.CATALOG_S3['prefix']}content/"
    assert s3_client().list_objects_v2(Bucket=BUCKET, Prefix=prefix).get("KeyCount") == 0


@pytest.mark.django_db
def test_unreachable_s3_is_503_and_a_counted_gc_failure(s3_store: S3Server, settings: object) -> None:
    """Nothing listens at the endpoint: readers get 503 with Retry-After, the sweep counts a failure."""
    dead = free_port()
    settings.CATALOG_S3 = {**settings.CATALOG_S3, "endpoint_url": f"http://127.0.0.1:{dead}"}  # type: ignore[attr-defined]
    Catalog.objects.create(
        name="ops", image_ref="r.io/ops:v1", content_digest="sha256:" + "a" * 64, last_unpacked=UNPACKED
    )
    for url in ("/catalogs/ops/api/v1/all", "/catalogs/ops/api/v1/metas?package=etcd"):
        response = Client().get(url)
        assert response.status_code == 503 and int(response["Retry-After"]) > 0
    failures = scrape_registry(scraped()).get_sample_value("catalog_content_cleanup_failures_total") or 0
    assert cleanup.sweep().failures == 1
    figures = scrape_registry(scraped())
    assert figures.get_sample_value("catalog_content_cleanup_failures_total") == failures + 1
    assert figures.get_sample_value("catalogs_known") == 1
    assert figures.get_sample_value("catalog_content_entries") is None


@pytest.mark.django_db
def test_s3_write_failing_midway_leaves_no_entry(s3_store: S3Server) -> None:
    """The marker goes last: when the third object cannot be uploaded, no reader sees the first two."""
    content, digest = store.get(), "sha256:" + "b" * 64
    with content.staging_dir() as staged:
        (staged / store.ALL_FILE).write_bytes(b'{"schema":"olm.package","name":"etcd"}\n')
        (staged / store.ALL_GZ_FILE).write_bytes(b"")
        (staged / store.INDEX_FILE).mkdir()  # uploading a directory fails, after the other two went up
        with pytest.raises(IsADirectoryError):
            content.write_entry(staged, digest)
    assert content.stat(digest) is None and not content.has(digest) and content.entries() == []
    assert content.remove_stale(3600, now=time.time() + 7200) == 1
