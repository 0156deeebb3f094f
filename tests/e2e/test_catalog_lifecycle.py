"""End to end: a catalog through the live API, a real Celery worker and beat, Redis, PostgreSQL and a registry."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import redis
import requests
from django.conf import settings

from catalogs.models import Catalog
from tests.fixtures.registry import Registry, expected_lines, fbc_layer
from tests.fixtures.stack import E2E_BROKER_URL, ApiSession, Stack
from tests.ports import free_port
from tests.waiting import wait_until
from workers.reconcile.catalog.polling import POLL_KEY

pytestmark = pytest.mark.e2e


def poll_now(catalog_id: str) -> None:
    """Forget when the catalog was last polled, so beat's next poll (every 2 s here) picks it up."""
    redis.Redis.from_url(E2E_BROKER_URL).delete(POLL_KEY.format(pk=catalog_id))


def condition(status: dict, type_: str) -> tuple[str, str]:
    found = next((c for c in status["conditions"] if c["type"] == type_), None)
    return (found["status"], found["reason"]) if found else ("", "")


def test_catalog_lifecycle(
    live_stack: Stack, api_session: Callable[..., ApiSession], own_registry: Registry, repository: str
) -> None:
    api = api_session()
    own_registry.push_image(repository, "stable", [fbc_layer("v1")])
    created = api.post(
        "/api/v1/catalogs/",
        json={
            "name": "community",
            "source": {"image": {"ref": f"{own_registry.host}/{repository}:stable", "poll_interval_minutes": 1}},
        },
    )
    assert created.status_code == 201, created.text
    catalog_id, url = created.json()["id"], f"/api/v1/catalogs/{created.json()['id']}/"
    content = f"{live_stack.api_url}/catalogs/community/api/v1"

    def status() -> dict:
        return api.get(url).json()["status"]

    first = wait_until(lambda: (s := status()) and condition(s, "Serving") == ("True", "Available") and s, "serving")
    assert "@sha256:" in first["resolved_ref"] and first["urls"]["base"].endswith("/catalogs/community")
    assert requests.get(f"{content}/all", timeout=10).content == expected_lines("v1")
    etcd = requests.get(f"{content}/metas", params={"package": "etcd"}, timeout=10)
    assert etcd.content == b"".join(expected_lines("v1").splitlines(keepends=True)[1:4])

    own_registry.push_image(repository, "stable", [fbc_layer("v2")])
    poll_now(catalog_id)
    second = wait_until(lambda: (s := status())["resolved_ref"] != first["resolved_ref"] and s, "the poll to update")
    assert requests.get(f"{content}/all", timeout=10).content == expected_lines("v2")

    own_registry.stop()
    poll_now(catalog_id)
    broken = wait_until(lambda: (s := status()) and condition(s, "Progressing") == ("True", "Retrying") and s, "retry")
    assert condition(broken, "Serving") == ("True", "Available")
    assert broken["resolved_ref"] == second["resolved_ref"]
    assert requests.get(f"{content}/all", timeout=10).content == expected_lines("v2")

    never = api.post(
        "/api/v1/catalogs/",
        json={
            "name": "never",
            "source": {"image": {"ref": f"127.0.0.1:{free_port()}/nothing/here:v1"}},
        },
    )
    assert never.status_code == 201
    pending = requests.get(f"{live_stack.api_url}/catalogs/never/api/v1/all", timeout=10)
    assert pending.status_code == 503 and pending.headers["Retry-After"]
    never_status = wait_until(
        lambda: (s := api.get(f"/api/v1/catalogs/{never.json()['id']}/").json()["status"])["conditions"] and s,
        "the first pass of the unreachable catalog",
    )
    assert condition(never_status, "Serving") == ("False", "Unavailable")
    assert requests.get(f"{live_stack.api_url}/catalogs/never/api/v1/metas", timeout=10).status_code == 503

    digest = Catalog.objects.get(pk=catalog_id).content_digest
    store_dir = Path(live_stack.env.get("CATALOG_STORE_DIR", settings.CATALOG_STORE_DIR))
    entry = store_dir / "content" / digest.replace(":", "-")
    assert entry.is_dir()
    assert api.delete(url).status_code == 204
    assert requests.get(f"{content}/all", timeout=10).status_code == 404
    assert requests.get(f"{content}/metas", timeout=10).status_code == 404
    assert not entry.exists()
