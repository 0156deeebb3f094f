"""Optimistic concurrency (ETag/If-Match), rate limits, and the audit trail."""

from __future__ import annotations

import threading

import pytest
from django.core.cache import cache
from django.db import connections
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from controlplane.models import AuditEntry
from gateways.models import Gateway
from tests.helpers import clear_of_a_rate_window_edge

BODY = {
    "name": "edge",
    "cluster": "east",
    "image": "r.example.com/gw:1",
    "supervisor_image": "r.example.com/sv:1",
    "database": {"provider": "external", "uri": "postgres://u:topsecret@db/x"},
}


@pytest.fixture
def gateway(alice_api, cluster) -> dict:
    response = alice_api.post("/api/v1/gateways/", BODY, format="json")
    assert response.status_code == 201, response.content
    return response.json()


@pytest.mark.django_db
def test_etag_and_if_match(alice_api, gateway) -> None:
    url = f"/api/v1/gateways/{gateway['id']}/"
    etag = alice_api.get(url)["ETag"]
    assert etag
    stale = alice_api.patch(url, {"suspended": True}, format="json", HTTP_IF_MATCH='"0-0"')
    assert stale.status_code == 412 and stale.json()["error"]["code"] == "precondition_failed"
    assert Gateway.objects.get(pk=gateway["id"]).suspended is False
    fresh = alice_api.patch(url, {"suspended": True}, format="json", HTTP_IF_MATCH=etag)
    assert fresh.status_code == 200 and fresh["ETag"] != etag
    assert alice_api.patch(url, {"suspended": False}, format="json", HTTP_IF_MATCH=etag).status_code == 412
    assert alice_api.delete(url, HTTP_IF_MATCH=etag).status_code == 412
    assert alice_api.patch(url, {"suspended": False}, format="json", HTTP_IF_MATCH="*").status_code == 200
    assert alice_api.patch(url, {"suspended": True}, format="json").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_concurrent_patches_never_lose_a_generation_bump(alice, cluster) -> None:
    client = APIClient()
    token = Token.objects.create(user=alice).key
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    gateway_id = client.post("/api/v1/gateways/", BODY, format="json").json()["id"]
    results: list[int] = []

    def patch(n: int) -> None:
        own = APIClient()
        own.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        response = own.patch(f"/api/v1/gateways/{gateway_id}/", {"image": f"r.example.com/gw:{n + 2}"}, format="json")
        results.append(response.status_code)
        connections.close_all()

    threads = [threading.Thread(target=patch, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [200] * 8
    assert Gateway.objects.get(pk=gateway_id).generation == 9


@pytest.mark.django_db
def test_rate_limit_gives_429_with_retry_after(alice_api, cluster, settings) -> None:
    cache.clear()
    settings.API_THROTTLE_USER_RATE = "3/day"
    clear_of_a_rate_window_edge(86400)
    codes = [alice_api.get("/api/v1/gateways/").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    limited = alice_api.get("/api/v1/gateways/")
    assert limited.status_code == 429 and int(limited["Retry-After"]) > 0
    assert limited.json()["error"]["code"] == "throttled"
    cache.clear()


@pytest.mark.django_db
def test_audit_trail_records_who_changed_what_without_secrets(alice_api, alice, gateway) -> None:
    url = f"/api/v1/gateways/{gateway['id']}/"
    alice_api.patch(
        url,
        {"image": "r.example.com/gw:2", "database": {"provider": "external", "uri": "postgres://n@db/y"}},
        format="json",
    )
    alice_api.post(f"{url}retry/")
    alice_api.delete(url)
    entries = list(AuditEntry.objects.filter(resource_id=gateway["id"]).order_by("timestamp", "id"))
    assert [e.action for e in entries] == ["create", "update", "retry", "delete"]
    assert all(e.actor == alice and e.actor_name == "alice" for e in entries)
    assert entries[1].changes == {"image": "r.example.com/gw:2", "database_uri": "<redacted>"}
    assert "topsecret" not in str([e.changes for e in entries])


@pytest.mark.django_db
def test_every_post_action_is_audited_and_checks_if_match(alice_api, admin_api, alice, gateway) -> None:
    url = f"/api/v1/gateways/{gateway['id']}/"
    Gateway.objects.filter(pk=gateway["id"]).update(failure_count=3)
    stale = alice_api.post(f"{url}retry/", HTTP_IF_MATCH='"0-0"')
    assert stale.status_code == 412
    assert Gateway.objects.get(pk=gateway["id"]).failure_count == 3
    etag = alice_api.get(url)["ETag"]
    retried = alice_api.post(f"{url}retry/", HTTP_IF_MATCH=etag)
    assert retried.status_code == 202 and retried.json()["status"]["failure_count"] == 0
    assert alice_api.post(f"{url}resync/").status_code == 202
    cluster_id = admin_api.get("/api/v1/clusters/").json()["results"][0]["id"]
    assert admin_api.post(f"/api/v1/clusters/{cluster_id}/probe/").status_code == 202
    actions = list(AuditEntry.objects.order_by("timestamp", "id").values_list("action", "actor_name", "source"))
    assert actions == [
        ("create", "alice", "api"),
        ("retry", "alice", "api"),
        ("resync", "alice", "api"),
        ("probe", "platform-admin", "api"),
    ]


@pytest.mark.django_db(transaction=True)
def test_post_actions_wait_for_the_row_lock(alice, cluster) -> None:
    """A retry while another transaction holds the gateway's row lock waits for it, then sees its write."""
    token = Token.objects.create(user=alice).key
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    gateway_id = client.post("/api/v1/gateways/", BODY, format="json").json()["id"]
    locked, finished = threading.Event(), threading.Event()

    def hold_lock() -> None:
        from django.db import transaction

        with transaction.atomic():
            Gateway.objects.select_for_update().get(pk=gateway_id)
            locked.set()
            finished.wait(0.5)
            Gateway.objects.filter(pk=gateway_id).update(failure_count=7)
        connections.close_all()

    holder = threading.Thread(target=hold_lock)
    holder.start()
    locked.wait(5)
    response = client.post(f"/api/v1/gateways/{gateway_id}/retry/")
    finished.set()
    holder.join()
    assert response.status_code == 202
    assert Gateway.objects.get(pk=gateway_id).failure_count == 0  # the retry ran after the holder's write
