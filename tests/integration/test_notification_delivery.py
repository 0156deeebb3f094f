"""From a recorded event to a signed POST on a real loopback receiver, in process: the outbox, matching,
idempotency keys, retries after a 500, a lapsed claim (a killed worker) and redirects checked at delivery."""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import timedelta

import pytest
from django.utils import timezone

from catalogs.models import Catalog, CatalogEvent
from cluster_vocabulary.kubernetes import EventType
from gateways.models import Gateway, GatewayEvent
from notifications import delivery, outbox
from notifications.choices import DeliveryStatus
from notifications.models import Delivery, PendingEvent, Receiver, Subscription
from tests.fixtures.receiver import HOLD
from tests.fixtures.receiver import Receiver as LoopbackReceiver

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

SECRET = "integration-signing-secret"


@pytest.fixture(autouse=True)
def loopback_allowed(settings) -> None:
    settings.NOTIFICATIONS_ALLOW_PRIVATE_ADDRESSES = True
    settings.NOTIFICATIONS_RETRY_BASE_SECONDS = 30
    settings.NOTIFICATIONS_TIMEOUT_SECONDS = 5


@pytest.fixture
def hook(receiver: LoopbackReceiver) -> Receiver:
    return Receiver.objects.create(name="hook", url=f"{receiver.url}/hook", secret=SECRET, tenants_may_subscribe=True)


def make_gateway(owner, cluster, name: str, labels: dict | None = None) -> Gateway:
    found = Gateway(owner=owner, cluster=cluster, name=name, image="gw:1", supervisor_image="sv:1", labels=labels or {})
    found.assign_namespace()
    found.save()
    return found


def fail(gateway: Gateway) -> GatewayEvent:
    """What the reconciler's last failing pass writes: a Warning event, and the phase Failed."""
    Gateway.objects.filter(pk=gateway.pk).update(phase="Failed")
    return GatewayEvent.objects.create(
        gateway=gateway, type=EventType.WARNING, reason="InstallFailed", message="helm install failed: boom"
    )


def dispatched(django_capture_on_commit_callbacks) -> list[Delivery]:
    with django_capture_on_commit_callbacks(execute=False):
        outbox.dispatch()
    return list(Delivery.objects.order_by("created_at"))


def make_due(found: Delivery) -> None:
    Delivery.objects.filter(pk=found.pk).update(next_attempt_at=timezone.now() - timedelta(seconds=1))


def signature_ok(seen) -> bool:
    material = seen.headers["X-Controlplane-Timestamp"].encode() + b"." + seen.body
    expected = "sha256=" + hmac.new(SECRET.encode(), material, hashlib.sha256).hexdigest()
    return hmac.compare_digest(seen.headers["X-Controlplane-Signature"], expected)


def test_a_failed_gateway_is_delivered_signed_once_after_a_500(
    alice, cluster, hook, receiver, django_capture_on_commit_callbacks
) -> None:
    Subscription.objects.create(owner=alice, name="failures", receiver=hook, kinds=["gateway"], min_severity="critical")
    edge = make_gateway(alice, cluster, "edge", {"tier": "prod"})
    with django_capture_on_commit_callbacks(execute=True):
        GatewayEvent.objects.create(gateway=edge, type=EventType.WARNING, reason="InstallFailed", message="retrying")
    assert not PendingEvent.objects.exists()  # dispatched after commit, as a warning: no match
    assert not Delivery.objects.exists()
    event = fail(edge)
    assert PendingEvent.objects.count() == 1
    [found] = dispatched(django_capture_on_commit_callbacks)
    assert found.event_id == event.pk and found.severity == "critical" and not PendingEvent.objects.exists()
    receiver.answer = lambda seen, earlier: 500 if earlier == 0 else 200

    assert delivery.deliver(str(found.pk)) == 30  # 500: again in 30 s
    found.refresh_from_db()
    assert (found.status, found.attempts, found.response_code) == (DeliveryStatus.PENDING, 1, 500)
    assert delivery.deliver(str(found.pk)) is None and len(receiver.requests()) == 1  # not due yet
    make_due(found)
    assert delivery.deliver(str(found.pk)) is None
    found.refresh_from_db()
    assert (found.status, found.attempts, found.response_code) == (DeliveryStatus.DELIVERED, 2, 200)

    first, second = receiver.requests()
    assert first.key == second.key == str(found.idempotency_key) and first.body == second.body
    assert signature_ok(first) and signature_ok(second)
    payload = json.loads(second.body)
    assert payload["version"] == "v1" and payload["kind"] == "gateway" and payload["name"] == "edge"
    assert (payload["reason"], payload["severity"], payload["cluster"]) == ("InstallFailed", "critical", "east")
    assert payload["link"].endswith(f"/api/v1/gateways/{edge.pk}/") and payload["delivery"] == second.key

    make_due(found)  # a redelivered task message, or a sweep, for a delivered row
    assert delivery.deliver(str(found.pk)) is None and len(receiver.requests()) == 2


def test_matching_twice_creates_one_delivery_and_tenants_get_only_their_gateways(
    alice, bob, cluster, hook, django_capture_on_commit_callbacks
) -> None:
    Subscription.objects.create(owner=bob, name="bobs", receiver=hook)
    alices = make_gateway(alice, cluster, "edge")
    event = fail(alices)
    assert dispatched(django_capture_on_commit_callbacks) == []  # bob's subscription: not his gateway
    Subscription.objects.create(owner=alice, name="alices", receiver=hook)
    PendingEvent.objects.create(kind="gateway", event_id=event.pk)
    assert len(dispatched(django_capture_on_commit_callbacks)) == 1
    PendingEvent.objects.create(kind="gateway", event_id=event.pk)  # the same event matched again
    assert len(dispatched(django_capture_on_commit_callbacks)) == 1


def test_admin_subscriptions_see_catalog_events_with_their_filters(
    admin_user, hook, django_capture_on_commit_callbacks
) -> None:
    Subscription.objects.create(
        owner=admin_user,
        name="signatures",
        receiver=hook,
        kinds=["catalog"],
        reasons=["SignatureInvalid"],
        labels={"team": "olm"},
    )
    catalog = Catalog.objects.create(name="signed", image_ref="registry.example.test/c:v1", labels={"team": "olm"})
    CatalogEvent.objects.create(catalog=catalog, type=EventType.WARNING, reason="Retrying", message="later")
    CatalogEvent.objects.create(catalog=catalog, type=EventType.WARNING, reason="SignatureInvalid", message="bad")
    [found] = dispatched(django_capture_on_commit_callbacks)
    assert (found.reason, found.severity, found.payload["kind"]) == ("SignatureInvalid", "critical", "catalog")


def test_no_subscription_no_outbox_rows(alice, cluster) -> None:
    fail(make_gateway(alice, cluster, "edge"))
    assert not PendingEvent.objects.exists()


def test_a_lapsed_claim_is_sent_again_with_the_same_key(
    alice, cluster, hook, receiver, django_capture_on_commit_callbacks
) -> None:
    Subscription.objects.create(owner=alice, name="failures", receiver=hook)
    fail(make_gateway(alice, cluster, "edge"))
    [found] = dispatched(django_capture_on_commit_callbacks)
    claimed = delivery.claim(str(found.pk), timezone.now())  # a worker claims it, sends, and is killed
    assert claimed is not None and claimed.number == 1
    assert delivery.claim(str(found.pk), timezone.now()) is None  # the claim holds: nobody else sends
    later = timezone.now() + timedelta(seconds=delivery.lease_seconds() + 1)
    assert delivery.due_ids(later, timedelta(seconds=30)) == [found.pk]
    Delivery.objects.filter(pk=found.pk).update(lease_expires_at=timezone.now() - timedelta(seconds=1))
    assert delivery.deliver(str(found.pk)) is None
    found.refresh_from_db()
    assert (found.status, found.attempts) == (DeliveryStatus.DELIVERED, 2)
    [seen] = receiver.requests()
    assert seen.key == str(found.idempotency_key)
    assert delivery.record(claimed, None, "late", True, timezone.now()) is None  # the killed attempt is fenced out


@pytest.mark.parametrize("location", ["http://127.0.0.2:9/", "http://169.254.169.254/latest/meta-data/"])
def test_a_redirect_to_a_forbidden_address_fails_the_delivery(
    alice, cluster, receiver, settings, django_capture_on_commit_callbacks, location: str
) -> None:
    """Only 127.0.0.1 is allowed (as one allowed network): the receiver's redirect elsewhere is refused."""
    import ipaddress

    settings.NOTIFICATIONS_ALLOW_PRIVATE_ADDRESSES = False
    settings.NOTIFICATIONS_ALLOW_HTTP = True
    settings.NOTIFICATIONS_ALLOWED_NETWORKS = (ipaddress.ip_network("127.0.0.1/32"),)
    hook = Receiver.objects.create(name="hook", url=f"{receiver.url}/hook", secret=SECRET, tenants_may_subscribe=True)
    Subscription.objects.create(owner=alice, name="failures", receiver=hook)
    receiver.answer = lambda seen, earlier: (307, location)
    fail(make_gateway(alice, cluster, "edge"))
    [found] = dispatched(django_capture_on_commit_callbacks)
    assert delivery.deliver(str(found.pk)) is None
    found.refresh_from_db()
    assert found.status == DeliveryStatus.FAILED and found.attempts == 1
    assert "refused" in found.last_error and "notifications may not be sent there" in found.last_error
    assert len(receiver.requests()) == 1


def test_a_held_request_is_not_sent_twice_while_the_claim_holds(
    alice, cluster, hook, receiver, django_capture_on_commit_callbacks
) -> None:
    Subscription.objects.create(owner=alice, name="failures", receiver=hook)
    fail(make_gateway(alice, cluster, "edge"))
    [found] = dispatched(django_capture_on_commit_callbacks)
    receiver.answer = lambda seen, earlier: HOLD
    receiver.release()  # answered at once: HOLD only waits while not released
    assert delivery.deliver(str(found.pk)) is None
    assert Delivery.objects.get(pk=found.pk).status == DeliveryStatus.DELIVERED


def test_a_cluster_going_unreachable_and_back_is_one_event_each_and_notified(
    admin_user, cluster, hook, django_capture_on_commit_callbacks
) -> None:
    from controlplane.models import ClusterEvent
    from workers import breaker

    Subscription.objects.create(owner=admin_user, name="outages", receiver=hook, kinds=["cluster"])
    with django_capture_on_commit_callbacks(execute=False):
        breaker.open_circuit(cluster, "connection refused")
        breaker.open_circuit(cluster, "connection refused")  # already open: nothing new
        cluster.refresh_from_db()
        cluster.reachable, cluster.probe_message = True, "Kubernetes v1.31.0"
        breaker.record_probe(cluster, False, dict(cluster.capabilities))
    assert [(e.type, e.reason) for e in ClusterEvent.objects.order_by("id")] == [
        ("Warning", "Unreachable"),
        ("Normal", "Reachable"),
    ]
    found = dispatched(django_capture_on_commit_callbacks)
    assert [(d.reason, d.severity, d.payload["link"].endswith(f"/api/v1/clusters/{cluster.pk}/")) for d in found] == [
        ("Unreachable", "warning", True),
        ("Reachable", "info", True),
    ]


@pytest.fixture
def only_127_0_0_1(settings) -> None:
    import ipaddress

    settings.NOTIFICATIONS_ALLOW_PRIVATE_ADDRESSES = False
    settings.NOTIFICATIONS_ALLOW_HTTP = True
    settings.NOTIFICATIONS_ALLOWED_NETWORKS = (ipaddress.ip_network("127.0.0.1/32"),)


def test_a_receiver_test_is_signed_and_reports_the_answer(admin_api, receiver, only_127_0_0_1) -> None:
    created = admin_api.post(
        "/api/v1/receivers/", {"name": "hook", "url": f"{receiver.url}/hook", "secret": SECRET}, format="json"
    )
    assert created.status_code == 201, created.content
    url = f"/api/v1/receivers/{created.json()['id']}/test/"
    response = admin_api.post(url)
    assert response.status_code == 200, response.content
    assert response.json()["delivered"] is True and response.json()["status_code"] == 200
    [seen] = receiver.requests()
    assert signature_ok(seen) and seen.key == response.json()["delivery"]
    assert json.loads(seen.body)["kind"] == "test" and seen.headers["X-Controlplane-Event"] == "test/Test"
    receiver.answer = lambda seen, earlier: 503
    failed = admin_api.post(url).json()
    assert (failed["delivered"], failed["status_code"]) == (False, 503)


@pytest.mark.parametrize("location", ["http://127.0.0.2:9/", "http://[::1]:9/", "http://10.0.0.1/"])
def test_a_receiver_test_through_a_redirect_to_a_forbidden_address_is_a_400(
    admin_api, receiver, only_127_0_0_1, location: str
) -> None:
    hook = Receiver.objects.create(name="hook", url=f"{receiver.url}/hook", secret=SECRET)
    receiver.answer = lambda seen, earlier: (302, location)
    response = admin_api.post(f"/api/v1/receivers/{hook.pk}/test/")
    assert response.status_code == 400
    assert "notifications may not be sent there" in response.json()["error"]["fields"]["url"][0]
    assert len(receiver.requests()) == 1


def test_a_closed_receiver_stops_tenant_deliveries_and_errors_never_show_the_url_path(
    alice, admin_user, cluster, receiver, django_capture_on_commit_callbacks
) -> None:
    hook = Receiver.objects.create(
        name="slackish", kind="slack", url=f"{receiver.url}/services/T0/B0/token-value", tenants_may_subscribe=True
    )
    Subscription.objects.create(owner=alice, name="tenant", receiver=hook)
    Subscription.objects.create(owner=admin_user, name="admin", receiver=hook)
    Receiver.objects.filter(pk=hook.pk).update(tenants_may_subscribe=False)
    fail(make_gateway(alice, cluster, "edge"))
    [found] = dispatched(django_capture_on_commit_callbacks)
    assert found.subscription.name == "admin"
    receiver.answer = lambda seen, earlier: 404
    delivery.deliver(str(found.pk))
    found.refresh_from_db()
    assert found.status == DeliveryStatus.FAILED and found.response_code == 404
    assert "token-value" not in found.last_error and f"HTTP 404 from {receiver.url}" in found.last_error
    [seen] = receiver.requests()
    assert list(json.loads(seen.body)) == ["text"] and "X-Controlplane-Signature" not in seen.headers
