"""End to end: content deleted from the store under a Serving, digest-pinned catalog is noticed by a reader of
the live API and unpacked again by the real Celery worker, within one CATALOG_CONTENT_LOST_REQUEUE_SECONDS."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
import requests
from django.conf import settings

from catalogs.models import Catalog
from tests.fixtures.registry import Registry, expected_lines, fbc_layer
from tests.fixtures.stack import ApiSession, Stack
from tests.waiting import wait_until

pytestmark = pytest.mark.e2e


def test_lost_content_is_served_again(
    live_stack: Stack, api_session: Callable[..., ApiSession], registry: Registry, repository: str
) -> None:
    api = api_session()
    digest = registry.push_image(repository, "v1", [fbc_layer("v1")])
    created = api.post(
        "/api/v1/catalogs/",
        json={
            "name": "healing",
            "source": {"image": {"ref": f"{registry.host}/{repository}@{digest}"}},
        },
    )
    assert created.status_code == 201, created.text
    url, content = f"/api/v1/catalogs/{created.json()['id']}/", f"{live_stack.api_url}/catalogs/healing/api/v1/all"

    def serving() -> tuple[str, str]:
        found = [c for c in api.get(url).json()["status"]["conditions"] if c["type"] == "Serving"]
        return (found[0]["status"], found[0]["reason"]) if found else ("", "")

    wait_until(lambda: serving() == ("True", "Available"), "the first unpack")
    assert requests.get(content, timeout=10).content == expected_lines("v1")
    content_digest = Catalog.objects.get(pk=created.json()["id"]).content_digest
    store_dir = Path(live_stack.env.get("CATALOG_STORE_DIR", settings.CATALOG_STORE_DIR))
    shutil.rmtree(store_dir / "content" / content_digest.replace(":", "-"))

    lost = requests.get(content, timeout=10)
    assert lost.status_code == 503 and int(lost.headers["Retry-After"]) > 0

    wait_until(
        lambda: requests.get(content, timeout=10).status_code == 200,
        "the content to be restored",
        timeout=settings.CATALOG_CONTENT_LOST_REQUEUE_SECONDS,
    )
    assert requests.get(content, timeout=10).content == expected_lines("v1")
    assert serving() == ("True", "Available")
    events = api.get(f"{url}events/").json()["results"]
    assert [(e["type"], e["reason"]) for e in reversed(events)] == [
        ("Normal", "Unpacked"),
        ("Warning", "ContentLost"),
        ("Normal", "ContentRestored"),
    ]
