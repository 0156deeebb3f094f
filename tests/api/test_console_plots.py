"""The console's plots as served (Django's test client): the dashboard's fleet charts and a rollout's wave bars.

The browser test (tests/browser/test_console_plots.py) checks that they render; these check what the
server sends: one chart per cluster and one line per phase, the empty state, who sees the plots, no
inline style (the Content-Security-Policy), and one bar segment per non-zero count.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from controlplane.models import FleetSample, ManagedCluster
from gateways.choices import Phase
from gateways.models import GatewayRelease
from rollouts.choices import RolloutPhase
from rollouts.models import Rollout, RolloutTarget
from tests.conftest import KUBECONFIG

pytestmark = pytest.mark.django_db


def page(user, path: str) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(path)
    assert response.status_code == 200
    html = response.content.decode()
    assert ' style="' not in html  # the Content-Security-Policy allows no inline style
    return html


def seed_samples(minutes: int = 30) -> list[ManagedCluster]:
    clusters = [
        ManagedCluster.objects.create(name=name, kubeconfig=KUBECONFIG, base_domain=f"{name}.example.test")
        for name in ("west", "east")
    ]
    now = timezone.now()
    FleetSample.objects.bulk_create(
        FleetSample(
            at=now - timedelta(minutes=m),
            cluster=cluster,
            counts={Phase.RUNNING: 10 - m // 10, Phase.FAILED: m // 10} if cluster.name == "east" else {},
        )
        for m in range(1, minutes + 1)
        for cluster in clusters
    )
    return clusters


def test_no_samples_yet(admin_user) -> None:
    html = page(admin_user, "/admin/")
    assert "No samples yet: the first is taken within a minute." in html
    assert "cp-chart-svg" not in html


def test_a_chart_per_cluster_with_a_line_per_phase(admin_user) -> None:
    seed_samples()
    html = page(admin_user, "/admin/")
    assert "(last hour, per cluster)" in html
    figures = re.findall(r'<figure class="cp-chart" data-cluster="([^"]+)"', html)
    assert figures == ["east", "west"]  # by name
    assert html.count('class="cp-chart-line') == 2 * len(Phase)
    assert re.search(r'data-phase="Running" d="M[\d. ]+(L[\d. ]+)+"', html)
    assert "Latest: Pending 0, Provisioning 0, Running 10, Degraded 0, Failed 0, Deleting 0." in html
    assert "cp-chart-line--dashed" in html  # Deleting: the muted tone, as Pending, but dashed
    assert "No samples yet" not in html


def test_only_the_deleting_line_is_dashed(admin_user) -> None:
    seed_samples()
    html = page(admin_user, "/admin/")
    assert re.findall(r'cp-chart-line--dashed" data-phase="([^"]+)"', html) == [Phase.DELETING] * 2  # per chart
    assert html.count("cp-chart-swatch--dashed") == 1  # and in the legend


def test_a_day_of_samples_uses_the_day_window(admin_user) -> None:
    seed_samples(minutes=7 * 60)
    assert "(last 24 hours, per cluster)" in page(admin_user, "/admin/")


def test_tenants_see_no_fleet_plots(make_user) -> None:
    seed_samples()
    tenant = make_user("tenant")
    tenant.is_staff = True
    tenant.save()
    html = page(tenant, "/admin/")
    assert 'id="cp-fleet"' not in html and "Gateways in trouble" in html


def test_the_rollout_page_draws_a_bar_per_wave(admin_user) -> None:
    release = GatewayRelease.objects.create(name="v2", chart="/charts/gateway")
    rollout = Rollout.objects.create(
        name="to-v2", target_release=release, phase=RolloutPhase.ABORTED, wave_count=2, current_wave=1
    )
    states = [(0, "healthy"), (0, "healthy"), (0, "failed"), (1, "upgrading"), (1, "pending"), (1, "pending")]
    RolloutTarget.objects.bulk_create(
        RolloutTarget(rollout=rollout, gateway_name=f"g{i}", cluster_name="east", wave=wave, position=i, state=state)
        for i, (wave, state) in enumerate(states)
    )
    html = page(admin_user, f"/admin/rollouts/rollout/{rollout.pk}/change/")
    chart = html[html.index('id="cp-rollout-chart"') : html.index('id="cp-rollout-waves"')]
    bars = re.findall(r'<g class="cp-chart-bar" data-wave="(\d)">(.*?)</g>', chart, re.S)
    assert [index for index, _ in bars] == ["0", "1"]
    segments = [re.findall(r'class="cp-chart-fill--(\w+)" data-state="(\w+)"', body) for _, body in bars]
    assert segments == [[("ok", "healthy"), ("error", "failed")], [("info", "upgrading"), ("muted", "pending")]]
    assert "Wave 0 (canary): 2 of 3 done, 2 healthy, 1 failed." in chart
