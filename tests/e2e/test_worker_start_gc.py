"""A Celery worker collects the content store's orphans when it starts, before it takes work.

Content a previous run left behind (its catalog deleted while no worker ran, say) is removed by the worker's
`worker_ready` sweep; without it the entry would wait for beat's periodic GC. Real parts: a Celery worker process
started as in production (`celery -A controlplane worker`), PostgreSQL, Redis, the directory content store. No
beat runs here, so nothing else sweeps; the broker is this test process's own, which no live stack consumes.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings

from catalogs import store
from controlplane.celery import app
from tests.fixtures.registry import stored_content
from tests.fixtures.stack import Stack, stack_env
from tests.waiting import wait_until

pytestmark = pytest.mark.e2e


@pytest.fixture
def worker_stack(stack_db: None, catalog_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """The environment of a worker that shares this test's database and content store; no process started yet."""
    db = settings.DATABASES["default"]
    database_url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    env = stack_env(database_url, settings.CELERY_BROKER_URL, tmp_path_factory)
    env |= {"CATALOG_STORE": "fs", "CATALOG_STORE_DIR": str(catalog_store), "CATALOG_GC_GRACE_SECONDS": "0"}
    stack = Stack(api_url="", env=env, logdir=tmp_path_factory.mktemp("gc-worker-logs"))
    app.control.purge()  # what earlier tests queued is not this worker's to run
    yield stack
    stack.stop_all()


def test_a_starting_worker_removes_an_orphan_before_it_is_ready(worker_stack: Stack) -> None:
    orphan = stored_content("v1")  # no catalog refers to it
    assert store.get().has(orphan)

    worker = worker_stack.start_worker(name="gc-worker", concurrency=1)

    def ready() -> bool:
        assert worker.poll() is None, worker_stack.log("gc-worker")[-3000:]
        return " ready." in worker_stack.log("gc-worker")

    wait_until(ready, "the worker to be ready")  # Celery logs "ready." after the worker_ready handlers ran
    assert not store.get().has(orphan), worker_stack.log("gc-worker")[-3000:]
    assert "catalog GC: removed 1" in worker_stack.log("gc-worker")
