"""The gateway chart from an OCI registry (oci://... with a pinned version), loaded once per worker; a registry
that cannot serve it leaves its releases Pending (ChartUnavailable) and is asked again with backoff."""

from __future__ import annotations

import threading
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection, transaction
from django.utils import timezone

from gateways.chart_source import chart_source_problem
from gateways.choices import ReleaseReason, ReleaseStatus
from gateways.models import Gateway, GatewayRelease
from rollouts.choices import RolloutPhase
from rollouts.models import Rollout
from rollouts.operations import create_rollout
from tests.fixtures.charts import MIRROR_CHART, push_chart
from tests.fixtures.registry_proxy import RegistryProxy
from tests.waiting import wait_until
from workers import releases, singletons
from workers.drivers.helm import is_loopback_oci
from workers.reconcile.gateway.passes.loop import settled
from workers.reconcile.gateway.passes.request_from_rows import build_request
from workers.reconcile.rollout.controller import advance

pytestmark = pytest.mark.integration


@pytest.mark.parametrize(
    ("ref", "loopback"),
    [
        ("oci://127.0.0.1:5000/charts/gw", True),
        ("oci://localhost/charts/gw", True),
        ("oci://registry.example.com/charts/gw", False),
        ("/charts/gw.tgz", False),
        ("oci://127.0.0.1.evil.test/x", False),
    ],
)
def test_plain_http_only_for_loopback(ref: str, loopback: bool) -> None:
    assert is_loopback_oci(ref) is loopback


def test_worker_loads_a_pinned_chart_from_an_oci_registry(registry, tmp_path, settings) -> None:
    _, digest = push_chart(MIRROR_CHART, registry.host, "charts", tmp_path)
    settings.GATEWAY_CHART = f"oci://{registry.host}/charts/openshell-gateway"
    settings.GATEWAY_CHART_VERSION = "0.1.0"
    settings.HELM_HOME = str(tmp_path / "worker-helm")
    singletons.chart.cache_clear()
    singletons.helm.cache_clear()
    try:
        chart = singletons.gateway_chart()
        assert chart.chart_version == "0.1.0" and chart.version is None
        assert Path(chart.ref).is_file() and Path(chart.ref).suffix == ".tgz"
        assert chart.defaults["image"]["repository"] and "grpcRoute" in chart.defaults
        assert singletons.gateway_chart() is chart
        assert Path(chart.ref).parent.parent == tmp_path / "worker-helm" / "charts"  # the worker's chart cache

        # Pinned by digest instead of a version: accepted at start-up, and helm v4 pulls exactly that artifact.
        settings.GATEWAY_CHART, settings.GATEWAY_CHART_VERSION = f"{settings.GATEWAY_CHART}@{digest}", ""
        assert chart_source_problem(settings.GATEWAY_CHART, "") is None
        singletons.chart.cache_clear()
        by_digest = singletons.gateway_chart()
        assert by_digest.chart_version == "0.1.0" and by_digest.ref != chart.ref
        assert by_digest.defaults == chart.defaults
    finally:
        singletons.chart.cache_clear()
        singletons.helm.cache_clear()


@pytest.mark.django_db(transaction=True)
def test_a_chart_the_registry_cannot_serve_leaves_its_release_pending_and_is_retried_with_backoff(
    registry_proxy: RegistryProxy, tmp_path, settings, alice, cluster
) -> None:
    push_chart(MIRROR_CHART, registry_proxy.target.host, "outage", tmp_path)
    settings.HELM_HOME = str(tmp_path / "worker-helm")
    settings.GATEWAY_RETRY_BASE_SECONDS, settings.GATEWAY_RETRY_CAP_SECONDS = 5, 10
    singletons.chart.cache_clear()
    singletons.helm.cache_clear()
    release = GatewayRelease.objects.create(
        name="remote", chart=f"oci://{registry_proxy.host}/outage/openshell-gateway", version="0.1.0"
    )
    gateway = Gateway(
        owner=alice, cluster=cluster, name="edge", image="r.test/gw:1", supervisor_image="r.test/s:1", release=release
    )
    gateway.assign_namespace()
    gateway.save()
    registry_proxy.fail_with = 503
    try:
        pending = releases.validate(release)
        assert (pending.status, pending.reason) == (ReleaseStatus.PENDING, ReleaseReason.CHART_UNAVAILABLE)
        assert "503" in pending.message and pending.validated_at is None
        asked = len(registry_proxy.requests)
        chart, inputs = releases.load(gateway)  # within the backoff: the registry is not asked again
        assert len(registry_proxy.requests) == asked and chart is releases.UNAVAILABLE
        assert inputs.unavailable and "503" in inputs.unavailable
        assert timezone.now() < inputs.retry_at <= timezone.now() + timedelta(seconds=5)
        request = build_request(gateway, chart, timezone.now(), inputs)
        assert request.values is None and request.values_error is None
        stalled = settled(request)
        assert stalled is not None and stalled.phase is None and stalled.failure_count is None
        assert {c.type: c.reason for c in stalled.conditions}["Stalled"] == "ChartUnavailable"
        assert 1.0 <= stalled.requeue_after <= 5.0
    finally:
        registry_proxy.fail_with = None
    # Pulled once the backoff ends (validate refreshes the release it is given).
    wait_until(lambda: releases.validate(release).status != ReleaseStatus.PENDING, "the release to be pulled", 30, 0.1)
    assert (release.status, release.reason, release.message, release.chart_version) == ("Ready", "", "", "0.1.0")
    chart, inputs = releases.load(gateway)
    assert chart.chart_version == "0.1.0" and inputs.unavailable is None
    singletons.chart.cache_clear()
    singletons.helm.cache_clear()


@pytest.mark.django_db(transaction=True)
def test_a_rollout_pulls_its_target_chart_before_it_locks_the_rollout(
    registry_proxy: RegistryProxy, tmp_path, settings, alice, cluster
) -> None:
    """The pull of a Pending rollout's oci:// chart may be slow; another worker must not wait on the rollout row."""
    push_chart(MIRROR_CHART, registry_proxy.target.host, "slow", tmp_path)
    settings.HELM_HOME = str(tmp_path / "worker-helm")
    singletons.chart.cache_clear()
    singletons.helm.cache_clear()
    target = GatewayRelease.objects.create(
        name="slow", chart=f"oci://{registry_proxy.host}/slow/openshell-gateway", version="0.1.0"
    )
    gateway = Gateway(owner=alice, cluster=cluster, name="edge", image="r.test/gw:1", supervisor_image="r.test/s:1")
    gateway.assign_namespace()
    gateway.save()
    rollout = create_rollout(Rollout(name="to-slow", target_release=target, wave_percentages=[100]))
    registry_proxy.waiting.clear()
    registry_proxy.gate.clear()

    def step() -> None:
        try:
            advance(str(rollout.pk))
        finally:
            connection.close()  # this thread's own

    stepping = threading.Thread(target=step)
    stepping.start()
    try:
        assert registry_proxy.waiting.wait(timeout=30), "the controller never asked the registry for the chart"
        with transaction.atomic():  # another worker, while the chart is being pulled
            locked = Rollout.objects.select_for_update(nowait=True).get(pk=rollout.pk)
            assert locked.phase == RolloutPhase.PENDING
    finally:
        registry_proxy.gate.set()
        stepping.join(timeout=60)
    assert not stepping.is_alive()
    assert GatewayRelease.objects.get(pk=target.pk).status == ReleaseStatus.READY
    singletons.chart.cache_clear()
    singletons.helm.cache_clear()
