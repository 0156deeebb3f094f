"""The list's read path renders every kind of gateway exactly as ``GatewaySerializer`` does."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from controlplane.api import pagination
from controlplane.conditions import set_condition
from gateways.api.serializers import GatewaySerializer
from gateways.choices import Phase
from gateways.models import Gateway, GatewayRelease

pytestmark = pytest.mark.django_db

WHEN = datetime(2026, 11, 30, 12, 0, 0, 123456, tzinfo=UTC)


def gateway(owner, cluster, name: str, **fields: object) -> Gateway:
    row = Gateway(
        owner=owner,
        cluster=cluster,
        name=name,
        image="ghcr.io/nvidia/openshell/gateway:1.2.3",
        supervisor_image="ghcr.io/nvidia/openshell/supervisor:1.2.3",
        **fields,
    )
    row.assign_namespace()
    row.save()
    return row


@pytest.fixture
def varied(alice, bob, cluster) -> list[Gateway]:
    v1 = GatewayRelease.objects.create(name="v1", chart="/charts/gateway", values={"replicas": 2})
    v2 = GatewayRelease.objects.create(name="v2", chart="/charts/gateway", values={"big": "x" * 1000})
    conditions = set_condition(
        [], type_="Ready", status="True", reason="Installed", message="ok", generation=3, now=WHEN
    )
    conditions = set_condition(
        conditions, type_="Progressing", status="False", reason="Done", message="", generation=3, now=WHEN
    )
    return [
        gateway(alice, cluster, "plain"),
        gateway(alice, cluster, "no-route", route_enabled=False),
        gateway(
            bob,
            cluster,
            "full",
            route_host="full.apps.example.com",
            oidc_issuer="https://id.example.com",
            oidc_audience="gw",
            oidc_roles_claim="groups",
            oidc_admin_role="a",
            oidc_user_role="u",
            oidc_ca_configmap="ca",
            database_provider="external",
            database_uri="postgresql://u:p@db/x",
            suspended=True,
            labels={"team": "payments", "tier": ""},
            release=v2,
            deployed_release=v1,
            phase=Phase.RUNNING,
            conditions=conditions,
            observed_generation=3,
            route_address="10.0.0.1",
            release_name="gw-full",
            release_revision=4,
            release_status="deployed",
            chart_version="1.2.3",
            failure_count=2,
            next_attempt_at=WHEN,
            deletion_requested_at=WHEN,
            window_held_until=WHEN,
        ),
        gateway(bob, cluster, "released", release=v1, phase=Phase.FAILED),
    ]


def test_every_list_item_equals_the_serializers_rendering(admin_api, varied) -> None:
    response = admin_api.get("/api/v1/gateways/?limit=200")
    assert response.status_code == 200
    listed = {item["id"]: item for item in response.json()["results"]}
    assert len(listed) == len(varied)
    for row in Gateway.objects.filter(pk__in=[g.pk for g in varied]):
        assert listed[str(row.pk)] == GatewaySerializer(row).data, row.name


def test_deep_offsets_and_cursors_page_the_same_rows(admin_api, varied, settings, monkeypatch) -> None:
    settings.API_EXACT_COUNT_LIMIT = 1
    names = sorted(g.name for g in varied)
    monkeypatch.setattr(pagination, "DEEP_OFFSET", 1)
    deep = admin_api.get("/api/v1/gateways/?limit=2&offset=1&ordering=name").json()["results"]
    assert [item["name"] for item in deep] == names[1:3]
    seen, url = [], "/api/v1/gateways/?cursor=&limit=3&ordering=name"
    while url:
        page = admin_api.get(url).json()
        seen += [item["name"] for item in page["results"]]
        url = page["next"]
    assert seen == names


def test_pages_past_the_middle_are_read_from_the_end_alike(admin_api, varied, cluster, alice, monkeypatch) -> None:
    for n in range(6):
        gateway(alice, cluster, f"more{n}")
    names = sorted(Gateway.objects.values_list("name", flat=True))
    monkeypatch.setattr(pagination, "DEEP_OFFSET", 1)
    for offset in range(1, len(names) + 2):
        page = admin_api.get(f"/api/v1/gateways/?limit=3&offset={offset}&ordering=-name").json()
        assert [item["name"] for item in page["results"]] == names[::-1][offset : offset + 3], offset
        assert page["count"] == len(names) and not page["count_is_estimate"]


def test_other_pages_of_the_viewset_keep_their_own_rows(admin_api, varied) -> None:
    from gateways.models import GatewayEvent

    full = varied[2]
    GatewayEvent.objects.create(gateway=full, type="Normal", reason="Installed", message="revision 4")
    response = admin_api.get(f"/api/v1/gateways/{full.pk}/events/")
    assert response.status_code == 200
    assert [(e["reason"], e["message"]) for e in response.json()["results"]] == [("Installed", "revision 4")]
