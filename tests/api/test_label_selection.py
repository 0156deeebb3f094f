"""Selecting gateways by labels (`rollouts.operations.selected_gateways` and `POST /api/v1/rollouts/`): the same
answers on every database. `test_embedded_database` runs this module on SQLite as well."""

from __future__ import annotations

import pytest

from controlplane.models import ManagedCluster
from gateways.models import Gateway, GatewayRelease
from rollouts.operations import selected_gateways
from tests.fixtures.charts import MIRROR_CHART
from tests.helpers import KUBECONFIG

pytestmark = pytest.mark.django_db

LABELS = {
    "a": {"tier": "prod", "team": "payments", "app.kubernetes.io/name": "edge"},
    "b": {"tier": "prod", "team": "search"},
    "c": {"tier": "dev", "team": "payments", "zone": "1"},
    "d": {"tier": "", "team__x": "y"},
    "e": {},
}


@pytest.fixture
def labelled(alice) -> dict[str, Gateway]:
    GatewayRelease.objects.create(name="v1", chart=str(MIRROR_CHART), default=True)
    cluster = ManagedCluster.objects.create(name="east", kubeconfig=KUBECONFIG, base_domain="east.example.com")
    gateways = {}
    for name, labels in LABELS.items():
        gateway = Gateway(owner=alice, cluster=cluster, name=name, image="gw:1", supervisor_image="sv:1", labels=labels)
        gateway.assign_namespace()
        gateway.save()
        gateways[name] = gateway
    return gateways


@pytest.mark.parametrize(
    ("labels", "expected"),
    [
        ({}, "abcde"),
        ({"tier": "prod"}, "ab"),
        ({"tier": "prod", "team": "payments"}, "a"),
        ({"team": "payments"}, "ac"),
        ({"app.kubernetes.io/name": "edge"}, "a"),
        ({"zone": "1"}, "c"),
        ({"tier": ""}, "d"),
        ({"team__x": "y"}, "d"),
        ({"tier": "PROD"}, ""),
        ({"tier": "pro"}, ""),
        ({"missing": "x"}, ""),
    ],
)
def test_a_label_selector_picks_the_gateways_with_all_its_labels(labelled, labels, expected) -> None:
    target = GatewayRelease.objects.create(name="v2", chart=str(MIRROR_CHART), status="Ready")
    selected = selected_gateways({"labels": labels}, target).values_list("name", flat=True)
    assert "".join(sorted(selected)) == expected


def test_a_rollout_selecting_by_labels_is_created_with_those_gateways(admin_api, labelled) -> None:
    GatewayRelease.objects.create(name="v2", chart=str(MIRROR_CHART), status="Ready")
    body = {
        "name": "to-v2",
        "target_release": "v2",
        "selector": {"labels": {"team": "payments"}},
        "waves": {"percentages": [100]},
    }
    response = admin_api.post("/api/v1/rollouts/", body, format="json")
    assert response.status_code == 201, response.content
    targets = admin_api.get(f"/api/v1/rollouts/{response.json()['id']}/targets/").json()["results"]
    assert sorted(t["gateway_name"] for t in targets) == ["a", "c"]
