"""Notification endpoints without a worker: receivers (admins, SSRF rules at create), subscriptions (tenancy),
and the delivery log (scoping). Bad input is a 4xx naming the field, and nothing is stored."""

from __future__ import annotations

import pytest

from gateways.models import Gateway
from notifications.models import Delivery, Receiver, Subscription

pytestmark = pytest.mark.django_db

SECRET = "a-long-random-signing-secret"


def webhook(url: str = "https://93.184.216.34/hook", **overrides: object) -> dict:
    return {"name": "ops", "kind": "webhook", "url": url, "secret": SECRET, **overrides}


def gateway(owner, cluster, name: str) -> Gateway:
    found = Gateway(owner=owner, cluster=cluster, name=name, image="gw:1", supervisor_image="sv:1")
    found.assign_namespace()
    found.save()
    return found


@pytest.fixture
def shared(db) -> Receiver:
    return Receiver.objects.create(
        name="shared", url="https://93.184.216.34/hook", secret=SECRET, tenants_may_subscribe=True
    )


def test_an_admin_creates_a_receiver_whose_url_and_secret_are_write_only(admin_api) -> None:
    created = admin_api.post("/api/v1/receivers/", webhook(tenants_may_subscribe=True), format="json")
    assert created.status_code == 201, created.content
    body = created.json()
    assert "url" not in body and "secret" not in body
    assert body["endpoint"] == "https://93.184.216.34" and body["has_secret"] is True
    receiver = Receiver.objects.get(pk=body["id"])
    assert receiver.url == "https://93.184.216.34/hook" and receiver.secret == SECRET
    assert admin_api.get(f"/api/v1/receivers/{body['id']}/").json() == body


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("https://127.0.0.1/hook", "loopback"),
        ("https://[::1]/hook", "loopback"),
        ("https://10.0.0.8/hook", "private"),
        ("https://192.168.1.20:8443/hook", "private"),
        ("https://169.254.169.254/latest", "link-local"),
        ("https://[fd00::1]/hook", "unique-local"),
        ("https://[::ffff:127.0.0.1]/hook", "loopback"),
        ("https://localhost/hook", "localhost resolves to"),  # a DNS name that resolves to loopback
        ("http://93.184.216.34/hook", "must start with https://"),
        ("ftp://example.com/x", "must start with https://"),
        ("https://user:pw@93.184.216.34/", "credentials"),
        ("https://nowhere.invalid/hook", "does not resolve"),
    ],
)
def test_a_receiver_url_that_breaks_the_rules_is_a_400(admin_api, url: str, why: str) -> None:
    response = admin_api.post("/api/v1/receivers/", webhook(url), format="json")
    assert response.status_code == 400, response.content
    assert why in " ".join(response.json()["error"]["fields"]["url"])
    assert not Receiver.objects.exists()


@pytest.mark.parametrize("url", ["http://127.0.0.1:9/hook", "https://localhost/hook", "https://10.0.0.8/hook"])
def test_the_platform_setting_allows_private_addresses(admin_api, settings, url: str) -> None:
    settings.NOTIFICATIONS_ALLOW_PRIVATE_ADDRESSES = True  # which also allows http://
    assert admin_api.post("/api/v1/receivers/", webhook(url), format="json").status_code == 201


def test_a_webhook_needs_a_secret_and_tenants_may_not_manage_receivers(admin_api, alice_api) -> None:
    response = admin_api.post("/api/v1/receivers/", webhook(secret="short"), format="json")
    assert response.status_code == 400 and "secret" in response.json()["error"]["fields"]
    slack = {"name": "chat", "kind": "slack", "url": "https://93.184.216.34/services/T/B/X"}
    assert admin_api.post("/api/v1/receivers/", slack, format="json").status_code == 201
    assert alice_api.post("/api/v1/receivers/", webhook(), format="json").status_code == 403
    assert alice_api.get("/api/v1/receivers/").status_code == 403


def test_a_tenant_subscribes_to_their_own_gateway(alice, alice_api, cluster, shared) -> None:
    mine = gateway(alice, cluster, "edge")
    body = {
        "name": "edge-failures",
        "receiver": "shared",
        "kinds": ["gateway"],
        "min_severity": "critical",
        "gateways": [str(mine.pk)],
        "labels": {"tier": "prod"},
    }
    created = alice_api.post("/api/v1/subscriptions/", body, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["owner"] == "alice" and created.json()["gateways"] == [str(mine.pk)]
    assert alice_api.post("/api/v1/subscriptions/", body, format="json").status_code == 409


def test_a_tenant_cannot_subscribe_to_another_tenants_gateway(alice, bob, bob_api, cluster, shared) -> None:
    alices = gateway(alice, cluster, "edge")
    body = {"name": "spy", "receiver": "shared", "gateways": [str(alices.pk)]}
    response = bob_api.post("/api/v1/subscriptions/", body, format="json")
    assert response.status_code == 400
    assert "among the gateways you may subscribe to" in " ".join(response.json()["error"]["fields"]["gateways"])
    assert not Subscription.objects.exists()


@pytest.mark.parametrize(
    ("body", "field", "text"),
    [
        ({"kinds": ["catalog"]}, "kinds", "Tenants may subscribe only to their own gateways' events"),
        ({"kinds": ["rollout", "gateway"]}, "kinds", "rollout events are for platform admins"),
        ({"receiver": "private"}, "receiver", "No receiver named private that you may use"),
        ({"kinds": ["cluster"]}, "kinds", "cluster events are for platform admins"),
        ({"kinds": ["node"]}, "kinds.0", "not a valid choice"),
        ({"kinds": "gateway"}, "kinds", "Expected a list"),
        ({"min_severity": "fatal"}, "min_severity", "not a valid choice"),
        ({"labels": {"bad key!": "x"}}, "labels", "invalid"),
        ({"gateways": ["not-a-uuid"]}, "gateways", "No gateway not-a-uuid"),
        ({"gateways": [7]}, "gateways.0", "Expected a string"),
        ({"colour": "red"}, "colour", "Unknown"),
    ],
)
def test_bad_subscriptions_are_400s(alice_api, shared, body: dict, field: str, text: str) -> None:
    Receiver.objects.create(name="private", url="https://93.184.216.34/p", secret=SECRET)
    response = alice_api.post("/api/v1/subscriptions/", {"name": "s", "receiver": "shared", **body}, format="json")
    assert response.status_code == 400, response.content
    assert text in " ".join(response.json()["error"]["fields"][field])
    assert not Subscription.objects.exists()


def test_an_admin_subscribes_to_any_kind(admin_api, shared) -> None:
    body = {
        "name": "all-trouble",
        "receiver": "shared",
        "kinds": ["catalog", "rollout", "cluster"],
        "reasons": ["SignatureInvalid", "GateFailed"],
        "min_severity": "warning",
    }
    assert admin_api.post("/api/v1/subscriptions/", body, format="json").status_code == 201


def test_tenants_see_only_their_subscriptions_and_deliveries(alice, bob, alice_api, bob_api, admin_api, shared) -> None:
    theirs = Subscription.objects.create(owner=alice, name="mine", receiver=shared, kinds=["gateway"])
    delivery = Delivery.objects.create(
        idempotency_key="6f1c2b9e-1d2a-4c8b-9e3f-0a1b2c3d4e5f",
        subscription=theirs,
        receiver=shared,
        owner=alice,
        event_kind="gateway",
        event_id=1,
        object_id="x",
        object_name="edge",
        reason="InstallFailed",
        severity="critical",
        payload={"version": "v1"},
    )
    assert [s["name"] for s in alice_api.get("/api/v1/subscriptions/").json()["results"]] == ["mine"]
    assert bob_api.get("/api/v1/subscriptions/").json()["results"] == []
    assert bob_api.get(f"/api/v1/subscriptions/{theirs.pk}/").status_code == 404
    listed = alice_api.get("/api/v1/deliveries/?status=pending").json()["results"]
    assert [d["id"] for d in listed] == [str(delivery.pk)] and listed[0]["receiver"] == "shared"
    assert bob_api.get(f"/api/v1/deliveries/{delivery.pk}/").status_code == 404
    assert admin_api.get(f"/api/v1/deliveries/{delivery.pk}/").json()["payload"] == {"version": "v1"}
    assert alice_api.post("/api/v1/deliveries/", {}, format="json").status_code == 405


def test_a_receiver_with_subscriptions_is_not_deleted(admin_api, admin_user, shared) -> None:
    Subscription.objects.create(owner=admin_user, name="mine", receiver=shared)
    response = admin_api.delete(f"/api/v1/receivers/{shared.pk}/")
    assert response.status_code == 409 and "still has subscriptions" in response.json()["error"]["message"]
    Subscription.objects.all().delete()
    assert admin_api.delete(f"/api/v1/receivers/{shared.pk}/").status_code == 204


def test_only_a_new_or_changed_url_is_checked_again_at_an_update(admin_api) -> None:
    stored = Receiver.objects.create(name="legacy", url="https://10.0.0.8/hook", secret=SECRET)  # allowed back then
    url = f"/api/v1/receivers/{stored.pk}/"
    assert admin_api.patch(url, {"tenants_may_subscribe": True}, format="json").status_code == 200
    moved = admin_api.patch(url, {"url": "https://10.0.0.9/hook"}, format="json")
    assert moved.status_code == 400 and "private" in moved.json()["error"]["fields"]["url"][0]


def test_gateway_ids_are_kept_canonical_and_once(alice, alice_api, cluster, shared) -> None:
    mine = gateway(alice, cluster, "edge")
    body = {"name": "s", "receiver": "shared", "gateways": [str(mine.pk).upper(), str(mine.pk)]}
    created = alice_api.post("/api/v1/subscriptions/", body, format="json")
    assert created.status_code == 201 and created.json()["gateways"] == [str(mine.pk)]


def test_metrics_count_deliveries_by_status(client, admin_user, shared) -> None:
    subscription = Subscription.objects.create(owner=admin_user, name="all", receiver=shared)
    Delivery.objects.create(
        idempotency_key="6f1c2b9e-1d2a-4c8b-9e3f-0a1b2c3d4e5f",
        subscription=subscription,
        receiver=shared,
        owner=admin_user,
        event_kind="gateway",
        event_id=1,
        object_id="x",
        object_name="edge",
        reason="InstallFailed",
        severity="critical",
        payload={},
        status="failed",
    )
    text = client.get("/metrics").content.decode()
    assert 'notification_deliveries{status="failed"} 1.0' in text
    assert 'notification_deliveries{status="delivered"} 0.0' in text
    assert "notification_events_pending 0.0" in text
