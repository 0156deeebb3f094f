"""Two API server processes (gunicorn) reading one database and one store give byte-identical answers.

On the directory store they share the directory; on S3 they, and the worker that unpacks the
catalog, share only PostgreSQL, Redis and the S3 server (each has a local scratch directory of its own).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import requests

from catalogs.models import Catalog
from controlplane.dispatch import send
from tests.fixtures.registry import Registry, expected_lines, fbc_layer, stored_content
from tests.fixtures.s3 import S3Server
from tests.fixtures.stack_database import database_url
from tests.paths import PROJECT_ROOT
from tests.ports import free_port
from tests.waiting import wait_serving, wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

COMPARED_HEADERS = ("Content-Type", "Content-Length", "Content-Encoding", "ETag", "Last-Modified", "Content-Range")
CASES = [
    ("GET", "/catalogs/shared/api/v1/all", {}),
    ("GET", "/catalogs/shared/api/v1/all", {"Accept-Encoding": "gzip"}),
    ("GET", "/catalogs/shared/api/v1/all", {"Range": "bytes=10-99"}),
    ("HEAD", "/catalogs/shared/api/v1/all", {}),
    ("GET", "/catalogs/shared/api/v1/metas?package=prometheus", {"Accept-Encoding": "identity"}),
    ("GET", "/catalogs/shared/api/v1/metas?schema=olm.bundle", {"Accept-Encoding": "gzip"}),
    ("GET", "/catalogs/pending/api/v1/all", {}),
    ("GET", "/catalogs/missing/api/v1/all", {}),
    ("GET", "/catalogs/shared/api/v1/graphql?query=%7Bolmpackages%7Bname%20description%7D%7D", {}),
]
GRAPHQL = "/catalogs/shared/api/v1/graphql"
GRAPHQL_QUERIES = [
    {"query": "{ __schema { types { name kind fields { name type { name kind ofType { name kind } } } } } }"},
    {
        "query": "query($p: String) { olmbundles(package: $p, limit: 5) { name properties { type value } } }",
        "variables": {"p": "etcd"},
    },
    {"query": "{ olmchannels(offset: 1) { name entries { name } } summary { schemas { name totalObjects } } }"},
]


def process_env(tmp_path: Path, store_env: dict[str, str]) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": database_url(),
        **store_env,
    }


def start_replicas(env: dict[str, str], tmp_path: Path, processes: list[subprocess.Popen]) -> list[str]:
    """Two gunicorn API processes; each gets its own CATALOG_STORE_DIR unless ``env`` names a shared one."""
    urls = []
    for number in range(2):
        port = free_port()
        own = {"CATALOG_STORE_DIR": str(tmp_path / f"api{number}-scratch")} if "CATALOG_STORE" in env else {}
        log = (tmp_path / f"api{number}.log").open("wb")
        processes.append(
            subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "controlplane.wsgi", "-b", f"127.0.0.1:{port}", "-w", "1"],
                cwd=PROJECT_ROOT,
                env={**env, **own},
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        )
        urls.append(f"http://127.0.0.1:{port}")
    for url, process in zip(urls, processes[-2:], strict=True):
        wait_serving(process, f"{url}/healthz", "gunicorn", timeout=30)
    return urls


def stop(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        process.terminate()
        process.wait(timeout=20)


def assert_alike(replicas: list[str], expected: bytes) -> None:
    for method, path, headers in CASES:
        first, second = [
            requests.request(
                method, url + path, headers={"Accept-Encoding": "identity", **headers}, timeout=10, stream=True
            )
            for url in replicas
        ]
        assert first.status_code == second.status_code, path
        raw = [answer.raw.read(decode_content=False) for answer in (first, second)]
        assert raw[0] == raw[1], (method, path, headers)
        assert [first.headers.get(h) for h in COMPARED_HEADERS] == [second.headers.get(h) for h in COMPARED_HEADERS]
    for body in GRAPHQL_QUERIES:
        first, second = [requests.post(url + GRAPHQL, json=body, timeout=10) for url in replicas]
        assert first.status_code == second.status_code == 200, first.content
        assert first.content == second.content and "errors" not in first.json()
        assert first.headers["ETag"] == second.headers["ETag"]
    whole = requests.get(replicas[0] + "/catalogs/shared/api/v1/all", timeout=10)
    assert whole.content == expected
    assert requests.get(replicas[1] + "/catalogs/pending/api/v1/all", timeout=10).status_code == 503
    etag = whole.headers["ETag"]
    for url in replicas:
        again = requests.get(url + "/catalogs/shared/api/v1/all", headers={"If-None-Match": etag}, timeout=10)
        assert again.status_code == 304 and again.content == b""


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen]]:
    started: list[subprocess.Popen] = []
    try:
        yield started
    finally:
        stop(started)


def test_replicas_answer_byte_for_byte_alike(
    catalog_store: Path, tmp_path: Path, processes: list[subprocess.Popen]
) -> None:
    replicas = start_replicas(process_env(tmp_path, {"CATALOG_STORE_DIR": str(catalog_store)}), tmp_path, processes)
    Catalog.objects.create(
        name="shared",
        image_ref="r.io/a:v1",
        content_digest=stored_content("v1"),
        last_unpacked=datetime(2026, 3, 4, tzinfo=UTC),
    )
    Catalog.objects.create(name="pending", image_ref="r.io/b:v1")
    assert_alike(replicas, expected_lines("v1"))


def test_replicas_and_worker_sharing_only_s3(
    s3_server: S3Server, registry: Registry, repository: str, tmp_path: Path, processes: list[subprocess.Popen]
) -> None:
    env = process_env(tmp_path, s3_server.env(f"replicas-{tmp_path.name}"))
    registry.push_image(repository, "v1", [fbc_layer("v1")])
    worker_log = tmp_path / "worker.log"
    processes.append(
        subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "controlplane", "worker", "-l", "INFO", "-c", "1", "--purge"],
            cwd=PROJECT_ROOT,
            env={**env, "CATALOG_STORE_DIR": str(tmp_path / "worker-scratch")},
            stdout=worker_log.open("wb"),
            stderr=subprocess.STDOUT,
        )
    )
    replicas = start_replicas(env, tmp_path, processes)
    catalog = Catalog.objects.create(name="shared", image_ref=f"{registry.host}/{repository}:v1")
    Catalog.objects.create(name="pending", image_ref="r.io/b:v1", availability_mode="Unavailable")

    def unpacked() -> str:
        send("workers.tasks.reconcile_catalog", catalog.pk)  # until the worker is up; passes are idempotent
        catalog.refresh_from_db()
        return catalog.content_digest

    wait_until(unpacked, lambda: f"the worker to unpack the catalog:\n{worker_log.read_text()[-3000:]}", 60, 1)
    Catalog.objects.filter(name="pending").update(availability_mode="Available")
    assert not any((tmp_path / f"api{n}-scratch" / "content").exists() for n in range(2))
    assert_alike(replicas, expected_lines("v1"))
