"""The cost of a poll, counted at the real registry through a recording proxy; Blocked digests, 429s with
Retry-After, and a bearer-token registry (the real ``docker-registry`` with token auth, and a token server
signing real JWTs) served end to end."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from email.utils import format_datetime
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone

from catalogs.models import Catalog, CatalogEvent
from controlplane.models import AuditEntry
from tests.fixtures.registry import PASSWORD, USERNAME, Registry, expected_lines, fbc_layer
from tests.fixtures.registry_proxy import RegistryProxy
from tests.fixtures.token_auth import TokenServer
from workers.reconcile.catalog import loop, polling
from workers.reconcile.catalog.outcome import CatalogOutcome

pytestmark = [pytest.mark.integration, pytest.mark.django_db]


@pytest.fixture(scope="module")
def token_proxy(token_registry: Registry) -> Iterator[RegistryProxy]:
    proxy = RegistryProxy(token_registry)
    yield proxy
    proxy.close()


@pytest.fixture(autouse=True)
def fresh_counts(registry_proxy: RegistryProxy) -> None:
    registry_proxy.requests.clear()
    registry_proxy.throttle_with = None


def reconcile(catalog: Catalog) -> CatalogOutcome:
    return loop.reconcile(str(catalog.pk), now=timezone.now())


def status(catalog: Catalog) -> dict[str, tuple[str, str]]:
    catalog.refresh_from_db()
    return {c["type"]: (c["status"], c["reason"]) for c in catalog.conditions}


def progress_message(catalog: Catalog) -> str:
    return next(c["message"] for c in catalog.conditions if c["type"] == "Progressing")


def served(name: str) -> bytes:
    response = Client().get(f"/catalogs/{name}/api/v1/all")
    assert response.status_code == 200, response.content
    return b"".join(response.streaming_content)


def pulled(proxy: RegistryProxy) -> bool:
    return any(method == "GET" for method, _ in proxy.requests)


def test_unchanged_tag_costs_one_head(
    registry: Registry, registry_proxy: RegistryProxy, repository: str, catalog_store: Path
) -> None:
    registry.push_image(repository, "v1", [fbc_layer("v1")])
    catalog = Catalog.objects.create(
        name="steady", image_ref=f"{registry_proxy.host}/{repository}:v1", poll_interval_minutes=5
    )
    reconcile(catalog)
    assert served("steady") == expected_lines("v1")
    registry_proxy.requests.clear()

    assert reconcile(catalog) == CatalogOutcome()

    assert registry_proxy.requests == [("HEAD", f"/v2/{repository}/manifests/v1")]


def test_blocked_digest_is_not_pulled_again_until_it_or_the_spec_changes(
    registry: Registry,
    registry_proxy: RegistryProxy,
    repository: str,
    catalog_store: Path,
    admin_user: object,
    django_capture_on_commit_callbacks,
) -> None:
    digest = registry.push_image(repository, "v1", [fbc_layer("v1")], labels={})
    catalog = Catalog.objects.create(
        name="stuck", image_ref=f"{registry_proxy.host}/{repository}:v1", poll_interval_minutes=5
    )
    assert reconcile(catalog).requeue_after is None
    assert status(catalog)["Progressing"] == ("False", "Blocked") and catalog.blocked_digest == digest
    before = (catalog.conditions, catalog.failure_count, CatalogEvent.objects.filter(catalog=catalog).count())
    registry_proxy.requests.clear()

    assert reconcile(catalog) == CatalogOutcome()  # the tag still names the blocked digest

    assert registry_proxy.requests == [("HEAD", f"/v2/{repository}/manifests/v1")]
    catalog.refresh_from_db()
    assert (catalog.conditions, catalog.failure_count, CatalogEvent.objects.filter(catalog=catalog).count()) == before

    catalog.priority = 7
    catalog.save()  # a spec change is a fresh start: the digest is pulled again
    assert Catalog.objects.get(pk=catalog.pk).blocked_digest == ""
    registry_proxy.requests.clear()
    reconcile(catalog)
    assert pulled(registry_proxy) and status(catalog)["Progressing"] == ("False", "Blocked")

    console = Client()
    console.force_login(admin_user)
    with django_capture_on_commit_callbacks(execute=False) as enqueued:  # the console's resync forces a pull
        answer = console.post("/admin/catalogs/catalog/", {"action": "resync_action", "_selected_action": catalog.pk})
    assert answer.status_code == 302 and len(enqueued) == 1
    assert Catalog.objects.get(pk=catalog.pk).blocked_digest == ""
    assert AuditEntry.objects.filter(action="resync", resource_id=str(catalog.pk), source="console").exists()
    registry_proxy.requests.clear()
    reconcile(catalog)
    assert pulled(registry_proxy) and Catalog.objects.get(pk=catalog.pk).blocked_digest == digest

    registry.push_image(repository, "v1", [fbc_layer("v1")])  # a fixed image behind the same tag
    reconcile(catalog)
    assert status(catalog) == {"Progressing": ("True", "Succeeded"), "Serving": ("True", "Available")}
    assert catalog.blocked_digest == "" and served("stuck") == expected_lines("v1")


@pytest.mark.parametrize("form", ["seconds", "http-date"])
def test_429_with_retry_after_is_honoured(
    registry: Registry, registry_proxy: RegistryProxy, repository: str, catalog_store: Path, form: str
) -> None:
    registry.push_image(repository, "v1", [fbc_layer("v1")])
    catalog = Catalog.objects.create(
        name="throttled", image_ref=f"{registry_proxy.host}/{repository}:v1", poll_interval_minutes=5
    )
    started = timezone.now()
    registry_proxy.throttle_with = (
        "120" if form == "seconds" else format_datetime(started + timedelta(seconds=121), usegmt=True)
    )

    result = reconcile(catalog)

    assert status(catalog) == {"Progressing": ("True", "Retrying"), "Serving": ("False", "Unavailable")}
    assert "rate-limiting requests (429); it asked to wait 1" in progress_message(catalog)
    assert result.requeue_after is not None and 119 <= result.requeue_after <= 122  # not the 10 s backoff
    assert catalog.failure_count == 1 and catalog.next_attempt_at >= started + timedelta(seconds=119)
    assert str(catalog.pk) not in polling.due_catalog_ids()  # the poll leaves it to its retry

    registry_proxy.throttle_with = None
    reconcile(catalog)
    assert status(catalog)["Serving"] == ("True", "Available")
    assert (catalog.failure_count, catalog.next_attempt_at) == (0, None)


def test_bearer_token_registry_serves_a_catalog_and_polls_with_one_request(
    token_registry: Registry,
    token_proxy: RegistryProxy,
    token_server: TokenServer,
    repository: str,
    catalog_store: Path,
) -> None:
    digest = token_registry.push_image(repository, "v1", [fbc_layer("v1")], index=True)
    catalog = Catalog.objects.create(
        name="tokened",
        image_ref=f"{token_proxy.host}/{repository}:v1",
        poll_interval_minutes=5,
        pull_username=USERNAME,
        pull_password=PASSWORD,
    )
    token_server.expires_in = 0  # tokens that expire at once: every later pass must renew
    token_server.requests.clear()

    reconcile(catalog)

    assert status(catalog) == {"Progressing": ("True", "Succeeded"), "Serving": ("True", "Available")}
    assert catalog.resolved_ref.endswith(digest) and served("tokened") == expected_lines("v1")
    head = ("HEAD", f"/v2/{repository}/manifests/v1")
    assert token_proxy.requests[:2] == [head, head] and token_proxy.requests.count(head) == 2  # refused once only
    assert token_server.requests == [f"repository:{repository}:pull"] * 2  # the pull renewed the expired token

    for expires_in, token_requests in ((300, 1), (300, 0)):  # renewed from the remembered realm, then reused
        token_server.expires_in = expires_in
        token_proxy.requests.clear()
        token_server.requests.clear()
        assert reconcile(catalog) == CatalogOutcome()
        assert token_proxy.requests == [head]
        assert len(token_server.requests) == token_requests


def test_bearer_token_registry_refuses_wrong_credentials_clearly(
    token_registry: Registry, token_proxy: RegistryProxy, repository: str, catalog_store: Path
) -> None:
    token_registry.push_image(repository, "v1", [fbc_layer("v1")])
    catalog = Catalog.objects.create(
        name="refused",
        image_ref=f"{token_proxy.host}/{repository}:v1",
        pull_username=USERNAME,
        pull_password="wrong-password-123",
    )

    assert reconcile(catalog).requeue_after

    assert status(catalog) == {"Progressing": ("True", "Retrying"), "Serving": ("False", "Unavailable")}
    assert progress_message(catalog) == "the token service rejected the credentials"
    assert "wrong-password-123" not in str(catalog.conditions)
