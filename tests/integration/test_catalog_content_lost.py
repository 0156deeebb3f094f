"""Served content lost from the store, on both stores: noticed by a reader or the sweep (Serving False,
``ContentLost``, a Warning event, one queued reconcile), then unpacked again by the queued task, pinned or not
(Serving True, a ``ContentRestored`` event), within one ``CATALOG_CONTENT_LOST_REQUEUE_SECONDS``."""

from __future__ import annotations

import base64
import json
import shutil

import pytest
import redis
from django.conf import settings
from django.core.cache import cache
from django.test import Client

from catalogs import store
from catalogs.lost_content import LOST_KEY
from catalogs.models import Catalog
from controlplane.celery import app
from tests.fixtures.outage import TcpProxy
from tests.fixtures.registry import Registry, expected_lines, fbc_layer
from tests.fixtures.s3 import BUCKET, put_raw, s3_client
from workers.tasks.catalogs import gc_catalog_content, reconcile_catalog

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

INTERVAL = 20  # CATALOG_CONTENT_LOST_REQUEUE_SECONDS here: a second loss within it queues nothing more


@pytest.fixture(autouse=True)
def interval(settings: object) -> None:
    settings.CATALOG_CONTENT_LOST_REQUEUE_SECONDS = INTERVAL  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def empty_queue() -> None:
    broker().delete("celery")


def broker() -> redis.Redis:
    return redis.Redis.from_url(settings.CELERY_BROKER_URL)


def queued() -> list[tuple[str, list]]:
    """(task name, args) of every message waiting in the broker's queue, oldest first."""
    found = []
    for raw in reversed(broker().lrange("celery", 0, -1)):
        message = json.loads(raw)
        args, _kwargs, _embed = json.loads(base64.b64decode(message["body"]))
        found.append((message["headers"]["task"], args))
    return found


def run_queued() -> int:
    """Take each queued message off the broker and run its task, as a worker would; how many ran."""
    ran = 0
    while (raw := broker().rpop("celery")) is not None:
        message = json.loads(raw)
        args, kwargs, _embed = json.loads(base64.b64decode(message["body"]))
        app.tasks[message["headers"]["task"]](*args, **kwargs)
        ran += 1
    return ran


def serving(catalog: Catalog) -> tuple[str, str]:
    catalog.refresh_from_db()
    found = next(c for c in catalog.conditions if c["type"] == "Serving")
    return found["status"], found["reason"]


def events(catalog: Catalog) -> list[tuple[str, str]]:
    return list(catalog.events.order_by("timestamp", "id").values_list("type", "reason"))


def body(response: object) -> bytes:
    return b"".join(response.streaming_content)  # type: ignore[attr-defined]


def served_catalog(registry: Registry, repository: str, name: str, *, pinned: bool) -> Catalog:
    """A catalog unpacked by the reconcile task and serving v1: pinned by digest, or a tag never polled."""
    digest = registry.push_image(repository, "v1", [fbc_layer("v1")])
    ref = f"{registry.host}/{repository}@{digest}" if pinned else f"{registry.host}/{repository}:v1"
    catalog = Catalog.objects.create(name=name, image_ref=ref)
    reconcile_catalog(str(catalog.pk))
    assert serving(catalog) == ("True", "Available")
    assert body(Client().get(f"/catalogs/{name}/api/v1/all")) == expected_lines("v1")
    return catalog


def lose(content_store: str, digest: str) -> None:
    """Delete the entry behind the store's back, as an operator or a failing volume would."""
    if content_store == "fs":
        shutil.rmtree(store.get().content_dir(digest))  # type: ignore[attr-defined]
        return
    prefix = settings.CATALOG_S3["prefix"]
    keys = [f"{prefix}entries/{store.entry_name(digest)}.json"] + [
        f"{prefix}content/{store.entry_name(digest)}/{name}" for name in store.ENTRY_FILES
    ]
    s3_client().delete_objects(Bucket=BUCKET, Delete={"Objects": [{"Key": key} for key in keys]})


def truncate(content_store: str, digest: str) -> None:
    """Cut the served JSONL short behind the store's back (its index and, on S3, its marker still say otherwise)."""
    whole = store.get().read(digest, store.ALL_FILE)
    assert whole
    if content_store == "fs":
        (store.get().content_dir(digest) / store.ALL_FILE).write_bytes(whole[: len(whole) // 2])  # type: ignore[attr-defined]
    else:
        put_raw(f"content/{store.entry_name(digest)}/{store.ALL_FILE}", whole[: len(whole) // 2])


def assert_restored(catalog: Catalog) -> None:
    """The queued reconcile (exactly one) serves the same digest again: no later interval's sweep is needed."""
    digest = catalog.content_digest
    assert queued() == [("workers.tasks.reconcile_catalog", [str(catalog.pk)])]
    assert run_queued() == 1
    assert serving(catalog) == ("True", "Available")
    assert catalog.content_digest == digest and store.get().has(digest)
    assert body(Client().get(f"/catalogs/{catalog.name}/api/v1/all")) == expected_lines("v1")
    assert events(catalog) == [("Normal", "Unpacked"), ("Warning", "ContentLost"), ("Normal", "ContentRestored")]
    assert catalog.revisions.count() == 1  # a restore is not a content switch
    assert queued() == []


@pytest.mark.parametrize("pinned", [True, False], ids=["digest", "tag-unpolled"])
def test_a_reader_notices_lost_content_and_it_is_unpacked_again(
    content_store: str, registry: Registry, repository: str, pinned: bool
) -> None:
    catalog = served_catalog(registry, repository, "healing", pinned=pinned)
    lose(content_store, catalog.content_digest)
    assert serving(catalog) == ("True", "Available")  # nobody has looked yet

    for url in ("/catalogs/healing/api/v1/all", "/catalogs/healing/api/v1/metas?package=etcd"):
        response = Client().get(url)
        assert response.status_code == 503 and int(response["Retry-After"]) > 0, url
        assert response.json()["error"]["code"] == "unavailable"

    assert serving(catalog) == ("False", "ContentLost")
    assert events(catalog) == [("Normal", "Unpacked"), ("Warning", "ContentLost")]
    assert_restored(catalog)


def test_the_sweep_notices_lost_content_nobody_reads(content_store: str, registry: Registry, repository: str) -> None:
    catalog = served_catalog(registry, repository, "unread", pinned=True)
    lose(content_store, catalog.content_digest)

    gc_catalog_content()

    assert serving(catalog) == ("False", "ContentLost")
    assert events(catalog) == [("Normal", "Unpacked"), ("Warning", "ContentLost")]
    assert_restored(catalog)


def test_truncated_content_is_lost_too(content_store: str, registry: Registry, repository: str) -> None:
    catalog = served_catalog(registry, repository, "truncated", pinned=True)
    truncate(content_store, catalog.content_digest)

    gc_catalog_content()

    assert serving(catalog) == ("False", "ContentLost")
    assert not store.get().has(catalog.content_digest)  # the remnant went, so no reader meets it
    assert Client().get("/catalogs/truncated/api/v1/all").status_code == 503
    assert_restored(catalog)


def test_a_loss_is_queued_once_per_interval(
    catalog_store: object, registry: Registry, repository: str, settings: object
) -> None:
    settings.CATALOG_CONTENT_LOST_REQUEUE_SECONDS = 3600  # type: ignore[attr-defined]
    catalog = served_catalog(registry, repository, "storm", pinned=True)
    lose("fs", catalog.content_digest)

    for _ in range(20):
        assert Client().get("/catalogs/storm/api/v1/all").status_code == 503
    gc_catalog_content()
    assert len(queued()) == 1
    assert events(catalog) == [("Normal", "Unpacked"), ("Warning", "ContentLost")]

    # The interval runs out (the cache lets the claim expire): the next reader queues again, and only it.
    assert cache.delete(LOST_KEY.format(pk=catalog.pk, digest=catalog.content_digest))
    for _ in range(5):
        assert Client().get("/catalogs/storm/api/v1/all").status_code == 503
    assert len(queued()) == 2
    assert events(catalog) == [("Normal", "Unpacked"), ("Warning", "ContentLost")]  # already says so: no new event


def test_a_pass_that_finds_a_corrupt_entry_replaces_it(content_store: str, registry: Registry, repository: str) -> None:
    """A pass for another reason (a resync) checks the entry itself, index included, and writes it whole again."""
    catalog = served_catalog(registry, repository, "rewritten", pinned=True)
    digest = catalog.content_digest
    corrupt = b'{"version": 1, "entries": [[0, 2'
    if content_store == "fs":
        (store.get().content_dir(digest) / store.INDEX_FILE).write_bytes(corrupt)  # type: ignore[attr-defined]
    else:
        put_raw(f"content/{store.entry_name(digest)}/{store.INDEX_FILE}", corrupt)

    reconcile_catalog(str(catalog.pk))

    assert store.get().read(digest, store.INDEX_FILE) != corrupt
    assert serving(catalog) == ("True", "Available") and catalog.content_digest == digest
    assert events(catalog) == [("Normal", "Unpacked"), ("Normal", "ContentRestored")]
    metas = Client().get("/catalogs/rewritten/api/v1/metas?schema=olm.package")
    assert metas.status_code == 200 and body(metas)


def test_a_heal_through_a_registry_outage_keeps_the_status_and_ends_in_a_restore(
    catalog_store: object, registry: Registry, repository: str
) -> None:
    """Before: with the registry down, the heal cleared resolved_ref, base_url and content_digest ("No content has
    been unpacked"), and the later recovery went into the history as a new switch."""
    proxy = TcpProxy(("127.0.0.1", registry.port))  # the catalog reaches the registry only through it
    proxy.up()
    try:
        digest = registry.push_image(repository, "v1", [fbc_layer("v1")])
        catalog = Catalog.objects.create(name="outage", image_ref=f"127.0.0.1:{proxy.port}/{repository}@{digest}")
        reconcile_catalog(str(catalog.pk))
        assert serving(catalog) == ("True", "Available")
        kept = (catalog.resolved_ref, catalog.base_url, catalog.content_digest)

        proxy.down()
        lose("fs", catalog.content_digest)
        assert Client().get("/catalogs/outage/api/v1/all").status_code == 503
        assert [name for name, _ in queued()] == ["workers.tasks.reconcile_catalog"]
        broker().delete("celery")
        reconcile_catalog(str(catalog.pk))  # the queued heal, while the registry is down

        assert serving(catalog) == ("False", "ContentLost")
        assert (catalog.resolved_ref, catalog.base_url, catalog.content_digest) == kept
        message = next(c["message"] for c in catalog.conditions if c["type"] == "Serving")
        assert catalog.content_digest in message and "waits" in message

        proxy.up()
        broker().delete("celery")
        reconcile_catalog(str(catalog.pk))  # the retry, once the registry answers
    finally:
        proxy.down()
    assert serving(catalog) == ("True", "Available")
    assert (catalog.resolved_ref, catalog.base_url, catalog.content_digest) == kept
    assert body(Client().get("/catalogs/outage/api/v1/all")) == expected_lines("v1")
    reasons = [reason for _, reason in events(catalog)]
    assert reasons[0] == "Unpacked" and reasons[-1] == "ContentRestored" and reasons.count("Unpacked") == 1
    assert catalog.revisions.count() == 1  # the recovery is a restore, not a content switch
