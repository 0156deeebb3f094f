"""The slim content server (controlplane.wsgi_content) under a real gunicorn: it serves catalog content as
the API process does, answers health, has no API or admin routes, and never loads DRF, the admin or Celery."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import requests

from catalogs.models import Catalog
from tests.fixtures.registry import expected_lines, stored_content
from tests.fixtures.stack_database import database_url
from tests.paths import PROJECT_ROOT
from tests.ports import free_port
from tests.waiting import wait_serving

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

BASE = "/catalogs/slim/api/v1"
FORBIDDEN_MODULES = (
    "rest_framework",
    "django.contrib.admin",
    "drf_spectacular",
    "celery",
    "kombu",
    "django.contrib.sessions",
    "gateways",
    "workers",
)
# Serve /all (plain and gzip), metas and readiness through the WSGI app in a fresh interpreter, then list what
# of FORBIDDEN_MODULES it loaded.
PROBE = """
import io, json, sys
from controlplane.wsgi_content import application
def get(path, query="", **headers):
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": path, "QUERY_STRING": query, "SERVER_NAME": "127.0.0.1",
               "SERVER_PORT": "80", "wsgi.input": io.BytesIO(), "wsgi.url_scheme": "http", **headers}
    statuses = []
    body = b"".join(application(environ, lambda status, headers: statuses.append(status)))
    return statuses[0], len(body)
answers = [get(BASE + "/all"), get(BASE + "/all", HTTP_ACCEPT_ENCODING="gzip"), get(BASE + "/metas", "package=etcd"),
           get("/readyz")]
loaded = sorted({m for m in sys.modules for f in FORBIDDEN if m == f or m.startswith(f + ".")})
print(json.dumps({"answers": answers, "loaded": loaded}))
"""


def process_env(catalog_store: Path) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": database_url(),
        "CATALOG_STORE_DIR": str(catalog_store),
    }


@pytest.fixture
def slim_catalog(catalog_store: Path) -> bytes:
    Catalog.objects.create(
        name="slim",
        image_ref="r.io/a:v1",
        content_digest=stored_content("v1"),
        last_unpacked=datetime(2026, 3, 4, tzinfo=UTC),
    )
    return expected_lines("v1")


@pytest.fixture
def servers(catalog_store: Path, tmp_path: Path) -> Iterator[dict[str, str]]:
    """The slim content server and the full API, one gunicorn worker each, on the same database and store."""
    started, urls = [], {}
    try:
        for name, module in (("content", "controlplane.wsgi_content"), ("api", "controlplane.wsgi")):
            port = free_port()
            started.append(
                subprocess.Popen(
                    [sys.executable, "-m", "gunicorn", module, "-b", f"127.0.0.1:{port}", "-w", "1"],
                    cwd=PROJECT_ROOT,
                    env=process_env(catalog_store),
                    stdout=(tmp_path / f"{name}.log").open("wb"),
                    stderr=subprocess.STDOUT,
                )
            )
            urls[name] = f"http://127.0.0.1:{port}"
        for (name, url), process in zip(urls.items(), started, strict=True):
            wait_serving(process, f"{url}/healthz", name, (tmp_path / f"{name}.log").read_text, timeout=30)
        yield urls
    finally:
        for process in started:
            process.terminate()
            process.wait(timeout=20)


def test_it_serves_what_the_api_serves_and_health_only(servers: dict[str, str], slim_catalog: bytes) -> None:
    content, api = servers["content"], servers["api"]
    cases = [
        (f"{BASE}/all", {}),
        (f"{BASE}/all", {"Accept-Encoding": "gzip"}),
        (f"{BASE}/all", {"Range": "bytes=5-60"}),
        (f"{BASE}/metas?package=etcd", {}),
        (f"{BASE}/metas?schema=olm.bundle", {"Accept-Encoding": "gzip"}),
        (f"{BASE}/metas?nope=1", {}),
        ("/catalogs/missing/api/v1/all", {}),
        ("/catalogs/Bad_Name/api/v1/all", {}),
    ]
    for path, headers in cases:
        ours, theirs = (
            requests.get(url + path, headers={"Accept-Encoding": "identity", **headers}, stream=True, timeout=10)
            for url in (content, api)
        )
        assert ours.status_code == theirs.status_code, path
        assert ours.raw.read(decode_content=False) == theirs.raw.read(decode_content=False), (path, headers)
        for header in ("Content-Type", "Content-Encoding", "ETag", "Last-Modified", "Content-Range"):
            assert ours.headers.get(header) == theirs.headers.get(header), (path, header)
    assert requests.get(f"{content}{BASE}/all", timeout=10).content == slim_catalog
    curl = subprocess.run(["curl", "-sf", "--compressed", f"{content}{BASE}/all"], capture_output=True, check=True)
    assert curl.stdout == slim_catalog

    assert requests.get(f"{content}/healthz", timeout=10).json() == {"status": "ok"}
    assert requests.get(f"{content}/readyz", timeout=10).json() == {"status": "ready", "checks": {"database": "ok"}}
    for path in ("/api/v1/catalogs/", "/admin/", "/metrics"):
        answer = requests.get(content + path, timeout=10)
        assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found", path


def test_it_loads_no_drf_admin_or_celery(catalog_store: Path, slim_catalog: bytes) -> None:
    script = f"BASE = {BASE!r}\nFORBIDDEN = {FORBIDDEN_MODULES!r}\n{PROBE}"
    env = {**process_env(catalog_store), "DJANGO_SETTINGS_MODULE": "controlplane.settings_content"}
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=PROJECT_ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    assert [status for status, _ in report["answers"]] == ["200 OK"] * 4
    assert report["answers"][0][1] == len(slim_catalog)
    assert report["loaded"] == []
