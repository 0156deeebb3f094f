"""A cluster's maintenance windows through the API: checked entries, the next window, and the audited override."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from controlplane.models import AuditEntry, ManagedCluster
from gateways.models import Gateway

pytestmark = pytest.mark.django_db

NIGHTLY = {"cron": "0 22 * * *", "duration": "4h", "timezone": "Europe/Berlin"}


def test_windows_are_stored_and_the_next_one_is_shown(admin_api, cluster) -> None:
    body = {
        "maintenance_windows": {
            "windows": [NIGHTLY],
            "freezes": [{"start": "2026-12-20T00:00:00+01:00", "end": "2027-01-04T00:00:00+01:00"}],
        }
    }
    response = admin_api.patch(f"/api/v1/clusters/{cluster.pk}/", body, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["maintenance_windows"] == body["maintenance_windows"]
    window = response.json()["status"]["maintenance_window"]
    start = datetime.fromisoformat(window["next_start"])
    assert start >= timezone.now() - timedelta(minutes=1)
    if window["open"]:
        assert window["message"] == "Inside a maintenance window"
    else:
        assert start.astimezone(UTC).minute == 0 and "Waiting for the next maintenance window" in window["message"]
    cluster.refresh_from_db()
    assert cluster.maintenance_windows == body["maintenance_windows"]


def test_a_cluster_without_windows_is_always_open(admin_api, cluster) -> None:
    window = admin_api.get(f"/api/v1/clusters/{cluster.pk}/").json()["status"]["maintenance_window"]
    assert window["open"] is True and window["override_until"] is None


@pytest.mark.parametrize(
    ("windows", "named"),
    [
        ({"windows": [NIGHTLY, {**NIGHTLY, "cron": "0 25 * * *"}]}, "windows[1].cron"),
        ({"windows": [{**NIGHTLY, "timezone": "Europe/Berln"}]}, "windows[0].timezone"),
        ({"windows": [{**NIGHTLY, "duration": "0h"}]}, "windows[0].duration"),
        ({"windows": [{**NIGHTLY, "duration": "40d"}]}, "windows[0].duration"),
        ({"freezes": [{"start": "2026-12-20T00:00:00+01:00", "end": "2026-12-01T00:00:00+01:00"}]}, "freezes[0].end"),
    ],
)
def test_bad_entries_are_a_400_naming_field_and_entry(admin_api, cluster, windows, named) -> None:
    response = admin_api.patch(f"/api/v1/clusters/{cluster.pk}/", {"maintenance_windows": windows}, format="json")
    assert response.status_code == 400, response.content
    messages = response.json()["error"]["fields"]["maintenance_windows"]
    assert any(named in message for message in messages), messages
    cluster.refresh_from_db()
    assert cluster.maintenance_windows == {}


def test_unknown_keys_in_an_entry_are_a_400(admin_api, cluster) -> None:
    body = {"maintenance_windows": {"windows": [{**NIGHTLY, "zone": "UTC"}]}}
    response = admin_api.patch(f"/api/v1/clusters/{cluster.pk}/", body, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["fields"] == {"maintenance_windows.windows.0.zone": ["Unknown or read-only field."]}


def held_gateway(owner, cluster: ManagedCluster, until: datetime) -> Gateway:
    row = Gateway(
        owner=owner,
        cluster=cluster,
        name="held",
        image="ghcr.io/nvidia/openshell/gateway:1.2.3",
        supervisor_image="ghcr.io/nvidia/openshell/supervisor:1.2.3",
    )
    row.assign_namespace()
    row.save()
    Gateway.objects.filter(pk=row.pk).update(window_held_until=until, next_attempt_at=until)
    return row


def test_override_is_a_platform_admins_audited_and_time_limited(
    admin_api, admin_user, alice_api, alice, cluster, django_capture_on_commit_callbacks
) -> None:
    ManagedCluster.objects.filter(pk=cluster.pk).update(maintenance_windows={"windows": [NIGHTLY]})
    gateway = held_gateway(alice, cluster, timezone.now() + timedelta(hours=5))
    url = f"/api/v1/clusters/{cluster.pk}/override-window/"
    assert alice_api.post(url, {"reason": "hotfix"}, format="json").status_code in (403, 404)
    assert admin_api.post(url, {}, format="json").status_code == 400  # the reason is required
    assert admin_api.post(url, {"reason": "hotfix", "minutes": 0}, format="json").status_code == 400
    assert admin_api.post(url, {"reason": "hotfix", "minutes": 24 * 60 + 1}, format="json").status_code == 400
    before = timezone.now()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = admin_api.post(url, {"reason": "CVE hotfix", "minutes": 30}, format="json")
    assert response.status_code == 200, response.content
    window = response.json()["status"]["maintenance_window"]
    until = datetime.fromisoformat(window["override_until"])
    assert before + timedelta(minutes=30) <= until <= timezone.now() + timedelta(minutes=30)
    assert window["open"] is True and window["override_reason"] == "CVE hotfix"
    entry = AuditEntry.objects.get(action="override-window", resource_id=str(cluster.pk))
    assert entry.actor_name == admin_user.username and entry.changes["reason"] == "CVE hotfix"
    assert datetime.fromisoformat(entry.changes["until"]) == until
    gateway.refresh_from_db()
    assert gateway.next_attempt_at is None  # the held change is due now
    assert len(callbacks) == 1  # and its pass is queued


def test_changing_the_windows_wakes_held_gateways(
    admin_api, alice, cluster, django_capture_on_commit_callbacks
) -> None:
    ManagedCluster.objects.filter(pk=cluster.pk).update(maintenance_windows={"windows": [NIGHTLY]})
    gateway = held_gateway(alice, cluster, timezone.now() + timedelta(hours=5))
    with django_capture_on_commit_callbacks(execute=False):
        response = admin_api.patch(f"/api/v1/clusters/{cluster.pk}/", {"maintenance_windows": {}}, format="json")
    assert response.status_code == 200
    gateway.refresh_from_db()
    assert gateway.next_attempt_at is None


def test_the_console_shows_the_windows_the_next_one_and_who_waits(client, admin_user, alice, cluster) -> None:
    windows = {
        "windows": [NIGHTLY],
        "freezes": [{"start": "2026-12-20T00:00:00+01:00", "end": "2027-01-04T00:00:00+01:00"}],
    }
    ManagedCluster.objects.filter(pk=cluster.pk).update(maintenance_windows=windows)
    held_gateway(alice, cluster, timezone.now() + timedelta(hours=5))
    cluster.refresh_from_db()
    status = cluster.maintenance_status
    client.force_login(admin_user)
    page = client.get(f"/admin/controlplane/managedcluster/{cluster.pk}/change/").content.decode()
    assert "0 22 * * * for 4h (Europe/Berlin)" in page
    assert "2026-12-20T00:00:00+01:00 until 2027-01-04T00:00:00+01:00" in page
    assert status["message"] in page
    if not status["open"]:
        assert status["next_start"].isoformat() in page
    held = page.split("Gateways waiting for a window", 1)[1]
    assert '<div class="readonly">1</div>' in held[:200]
    listing = client.get("/admin/controlplane/managedcluster/").content.decode()
    assert ("Open</span>" if status["open"] else "Closed</span>") in listing
