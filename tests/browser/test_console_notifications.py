"""The notifications console, with Django's test client (no browser, no stack): platform admins only, the
receiver URL and secret write-only, SSRF errors on the field, and a read-only delivery log."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from notifications.models import Delivery, Receiver, Subscription

URL = "https://93.184.216.34/services/T000/B000/slack-token-value"
SECRET = "console-signing-secret-value"


@pytest.fixture
def root(db: None) -> Any:
    return get_user_model().objects.create_superuser("root")


@pytest.fixture
def tenant(db: None) -> Any:
    return get_user_model().objects.create_user("tenant", is_staff=True)


@pytest.fixture
def hook(db: None) -> Receiver:
    return Receiver.objects.create(name="hook", url=URL, secret=SECRET)


@pytest.fixture
def delivery(root, hook) -> Delivery:
    subscription = Subscription.objects.create(owner=root, name="all", receiver=hook)
    return Delivery.objects.create(
        idempotency_key="6f1c2b9e-1d2a-4c8b-9e3f-0a1b2c3d4e5f",
        subscription=subscription,
        receiver=hook,
        owner=root,
        event_kind="gateway",
        event_id=1,
        object_id="x",
        object_name="edge",
        reason="InstallFailed",
        severity="critical",
        payload={"version": "v1", "reason": "InstallFailed"},
        status="delivered",
        attempts=2,
        response_code=200,
    )


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


PAGES = ("/admin/notifications/receiver/", "/admin/notifications/subscription/", "/admin/notifications/delivery/")


def test_admins_see_the_pages_and_never_the_url_or_secret(root, hook, delivery) -> None:
    client = client_for(root)
    for page in (
        *PAGES,
        f"/admin/notifications/receiver/{hook.pk}/change/",
        f"/admin/notifications/delivery/{delivery.pk}/change/",
    ):
        response = client.get(page)
        assert response.status_code == 200, page
        body = response.content.decode()
        assert "slack-token-value" not in body and SECRET not in body, page
    log = client.get("/admin/notifications/delivery/").content.decode()
    assert "edge" in log and "delivered" in log and "critical" in log
    assert "https://93.184.216.34" in client.get("/admin/notifications/receiver/").content.decode()


def test_tenants_do_not_get_the_pages(tenant, delivery) -> None:
    client = client_for(tenant)
    for page in PAGES:
        assert client.get(page).status_code == 403, page


def test_a_refused_url_is_an_error_on_the_field_and_an_empty_one_keeps_the_stored_url(root, hook) -> None:
    client = client_for(root)
    response = client.post(
        "/admin/notifications/receiver/add/",
        {
            "name": "local",
            "kind": "webhook",
            "url": "https://169.254.169.254/latest",
            "secret": SECRET,
        },
    )
    assert response.status_code == 200
    assert "link-local" in response.context["adminform"].form.errors["url"][0]
    assert not Receiver.objects.filter(name="local").exists()
    response = client.post(
        f"/admin/notifications/receiver/{hook.pk}/change/",
        {
            "name": "hook",
            "kind": "webhook",
            "url": "",
            "secret": "",
            "tenants_may_subscribe": "on",
        },
    )
    assert response.status_code == 302, response.content.decode()[-2000:]
    hook.refresh_from_db()
    assert (hook.url, hook.secret, hook.tenants_may_subscribe) == (URL, SECRET, True)


def test_the_delivery_log_is_read_only(root, delivery) -> None:
    client = client_for(root)
    assert client.get("/admin/notifications/delivery/add/").status_code == 403
    response = client.post(f"/admin/notifications/delivery/{delivery.pk}/change/", {"status": "pending"})
    assert response.status_code == 403
    delivery.refresh_from_db()
    assert delivery.status == "delivered"
