"""Two API server processes (gunicorn) reading one database and one store give byte-identical answers."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import requests
from django.conf import settings

from catalogs.models import Catalog
from tests.fixtures.registry import expected_lines, free_port, stored_content

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
COMPARED_HEADERS = ("Content-Type", "Content-Length", "Content-Encoding", "ETag", "Last-Modified", "Content-Range")


def wait_until_up(url: str, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and process.poll() is None:
        try:
            requests.get(url, timeout=1)
            return
        except requests.RequestException:
            time.sleep(0.1)
    raise RuntimeError(f"gunicorn did not start on {url}")


@pytest.fixture
def replicas(catalog_store: Path, tmp_path: Path) -> Iterator[list[str]]:
    db = settings.DATABASES["default"]
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CATALOG_STORE_DIR": str(catalog_store),
    }
    processes, urls = [], []
    for number in range(2):
        port = free_port()
        log = (tmp_path / f"api{number}.log").open("wb")
        processes.append(subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "controlplane.wsgi", "-b", f"127.0.0.1:{port}", "-w", "1"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        ))
        urls.append(f"http://127.0.0.1:{port}")
    try:
        for url, process in zip(urls, processes, strict=True):
            wait_until_up(f"{url}/healthz", process)
        yield urls
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=20)


def test_replicas_answer_byte_for_byte_alike(replicas: list[str]) -> None:
    Catalog.objects.create(
        name="shared", image_ref="r.io/a:v1", content_digest=stored_content("v1"),
        last_unpacked=datetime(2026, 3, 4, tzinfo=UTC),
    )
    Catalog.objects.create(name="pending", image_ref="r.io/b:v1")
    cases = [
        ("GET", "/catalogs/shared/api/v1/all", {}),
        ("GET", "/catalogs/shared/api/v1/all", {"Accept-Encoding": "gzip"}),
        ("GET", "/catalogs/shared/api/v1/all", {"Range": "bytes=10-99"}),
        ("HEAD", "/catalogs/shared/api/v1/all", {}),
        ("GET", "/catalogs/shared/api/v1/metas?package=prometheus", {"Accept-Encoding": "identity"}),
        ("GET", "/catalogs/shared/api/v1/metas?schema=olm.bundle", {"Accept-Encoding": "gzip"}),
        ("GET", "/catalogs/pending/api/v1/all", {}),
        ("GET", "/catalogs/missing/api/v1/all", {}),
    ]
    for method, path, headers in cases:
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
    whole = requests.get(replicas[0] + "/catalogs/shared/api/v1/all", timeout=10)
    assert whole.content == expected_lines("v1")
    assert requests.get(replicas[1] + "/catalogs/pending/api/v1/all", timeout=10).status_code == 503
