"""Publishing a pass: one conditional write; a stale pass never overwrites newer state."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from gateways.chart_keys import defaults_from_yaml
from gateways.models import Gateway
from tests.paths import MIRROR_CHART
from workers.charts import Chart
from workers.reconcile.gateway.outcome import GatewayOutcome
from workers.reconcile.gateway.passes.publish import changed_fields, publish
from workers.reconcile.gateway.passes.request_from_rows import build_request

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
CHART = Chart(
    ref=str(MIRROR_CHART),
    version=None,
    chart_version="0.1.0",
    defaults=defaults_from_yaml((MIRROR_CHART / "values.yaml").read_text()),
)


@pytest.fixture
def gateway(alice, cluster) -> Gateway:
    gateway = Gateway(owner=alice, cluster=cluster, name="pub", image="r.test/gw:1", supervisor_image="r.test/s:1")
    gateway.assign_namespace()
    gateway.save()
    return gateway


def running_result() -> GatewayOutcome:
    result = GatewayOutcome(phase="Running", route_address="grpcs://h:443", failure_count=0)
    result.condition("Ready", "True", "Succeeded", "ok")
    result.event("InstallSucceeded", "installed")
    return result


def test_publish_writes_status_and_events(gateway) -> None:
    request = build_request(gateway, CHART, NOW)
    assert request.values_error is None
    assert publish(request, running_result(), NOW, lease_token=None) is True
    gateway.refresh_from_db()
    assert (gateway.phase, gateway.route_address, gateway.observed_generation) == ("Running", "grpcs://h:443", 1)
    assert gateway.conditions[0]["type"] == "Ready" and gateway.conditions[0]["observedGeneration"] == 1
    assert [e.reason for e in gateway.events.all()] == ["InstallSucceeded"]


def test_stale_pass_keeps_newer_spec_state_but_records_its_events(gateway) -> None:
    request = build_request(gateway, CHART, NOW)
    gateway.image = "r.test/gw:2"
    gateway.save()
    assert publish(request, running_result(), NOW, lease_token=None) is False
    gateway.refresh_from_db()
    assert (gateway.phase, gateway.route_address, gateway.observed_generation) == ("Pending", "", 0)
    assert gateway.conditions == []
    assert gateway.events.count() == 1


def test_a_pass_that_began_before_deletion_does_not_undo_deleting(gateway) -> None:
    request = build_request(gateway, CHART, NOW)
    Gateway.objects.filter(pk=gateway.pk).update(deletion_requested_at=NOW, phase="Deleting")
    assert publish(request, running_result(), NOW, lease_token=None) is False
    assert Gateway.objects.get(pk=gateway.pk).phase == "Deleting"


def test_delete_row_result_removes_the_gateway_only_when_deletion_was_requested(gateway) -> None:
    result = GatewayOutcome(delete_row=True)
    request = build_request(gateway, CHART, NOW)
    publish(request, result, NOW, lease_token=None)
    assert Gateway.objects.filter(pk=gateway.pk).exists()
    Gateway.objects.filter(pk=gateway.pk).update(deletion_requested_at=NOW)
    gateway.refresh_from_db()
    assert publish(build_request(gateway, CHART, NOW), result, NOW, lease_token=None) is True
    assert not Gateway.objects.filter(pk=gateway.pk).exists()


def test_spec_change_resets_failures(gateway) -> None:
    Gateway.objects.filter(pk=gateway.pk).update(failure_count=5, next_attempt_at=NOW, phase="Failed")
    gateway.refresh_from_db()
    gateway.suspended = True
    gateway.save()
    gateway.refresh_from_db()
    assert (gateway.failure_count, gateway.next_attempt_at, gateway.generation) == (0, None, 2)


def test_publish_is_fenced_by_the_lease_token(gateway) -> None:
    request = build_request(gateway, CHART, NOW)
    Gateway.objects.filter(pk=gateway.pk).update(lease_owner="theirs", lease_expires_at=NOW + timedelta(minutes=1))
    assert publish(request, running_result(), NOW, lease_token="mine") is False
    assert publish(request, running_result(), NOW, lease_token=None) is False
    gateway.refresh_from_db()
    assert (gateway.phase, gateway.events.count()) == ("Pending", 0)
    assert publish(request, running_result(), NOW, lease_token="theirs") is True
    assert Gateway.objects.get(pk=gateway.pk).phase == "Running"


def test_an_unchanged_result_writes_nothing(gateway) -> None:
    request = build_request(gateway, CHART, NOW)
    result = GatewayOutcome(phase="Running", route_address="grpcs://h:443", failure_count=0)
    result.condition("Ready", "True", "Succeeded", "ok")
    assert publish(request, result, NOW, lease_token=None) is True
    gateway.refresh_from_db()
    assert changed_fields(gateway, request, result, NOW + timedelta(minutes=5)) == {}
    assert publish(request, result, NOW + timedelta(minutes=5), lease_token=None) is True
    assert Gateway.objects.get(pk=gateway.pk).last_reconciled_at == NOW
    result.condition("Ready", "False", "Degraded", "not ready")
    assert set(changed_fields(gateway, request, result, NOW)) == {"conditions"}
