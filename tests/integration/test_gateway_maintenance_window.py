"""Maintenance windows on devcluster: an upgrade outside its cluster's window is held (Helm history shows no new
revision, the condition names the next window) and applied once a window is open; a rollout wave waits the same
way, a freeze holds it inside an allowed window, a platform admin's override starts it, audited, and the gateway
it started finishes after the override ended.

Real parts: PostgreSQL, the worker's pass (`run_pass`) and rollout controller (`advance`), the real helm binary
with the mirror chart, devcluster over HTTP. The windows are computed around the real clock: one that opens hours
from now, and one that opened half an hour ago.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from controlplane.models import AuditEntry, ManagedCluster
from controlplane.window_override import override_window, wake_held_gateways
from gateways.models import Gateway, GatewayRelease
from rollouts.models import Rollout
from rollouts.operations import create_rollout
from tests.fixtures.charts import MIRROR_CHART, helm_images
from tests.fixtures.devcluster import DevCluster, start_devcluster
from tests.helpers import converge_by_passes
from workers.reconcile.gateway.passes.run import run_pass
from workers.reconcile.rollout.controller import advance

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

IMAGES = ("r.test/gw:1", "r.test/s:1")


@pytest.fixture(scope="module")
def devcluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevCluster]:
    with start_devcluster(tmp_path_factory.mktemp("window-k8s"), extra_presets=("agent-sandbox",)) as dc:
        yield dc


def daily_window(opens_at: datetime, duration: str) -> dict:
    """A daily window opening at ``opens_at``'s time of day (UTC)."""
    return {"cron": f"{opens_at.minute} {opens_at.hour} * * *", "duration": duration, "timezone": "UTC"}


def closed_now() -> tuple[dict, datetime]:
    """Windows that open in six hours (for one hour), and when."""
    opens = (timezone.now() + timedelta(hours=6)).astimezone(UTC).replace(second=0, microsecond=0)
    return {"windows": [daily_window(opens, "1h")]}, opens


def open_now() -> dict:
    """A window that opened half an hour ago and lasts two hours."""
    return {"windows": [daily_window(timezone.now().astimezone(UTC) - timedelta(minutes=30), "2h")]}


def set_windows(cluster: ManagedCluster, windows: dict) -> None:
    """As the API does: save, then wake the gateways that waited."""
    cluster.maintenance_windows = windows
    cluster.full_clean()
    cluster.save()
    wake_held_gateways(cluster)


def condition(row: Any, type_: str = "MaintenanceWindow") -> dict:
    return next((c for c in row.conditions if c["type"] == type_), {})


@pytest.fixture
def installed(devcluster, mirror_worker, alice) -> Gateway:
    """A Running gateway on a cluster whose window is closed: a new install is not held by default."""
    cluster = ManagedCluster.objects.create(
        name="win", kubeconfig=devcluster.kubeconfig.read_text(), base_domain="win.example.test"
    )
    set_windows(cluster, closed_now()[0])
    GatewayRelease.objects.create(name="v1", chart=str(MIRROR_CHART), default=True)
    gateway = Gateway(owner=alice, cluster=cluster, name="edge", image=IMAGES[0], supervisor_image=IMAGES[1])
    gateway.assign_namespace()
    gateway.save()
    return converge_by_passes(gateway, lambda current: current.phase == "Running")


def test_an_upgrade_outside_the_window_is_held_and_applied_inside_it(devcluster, installed, tmp_path) -> None:
    kubeconfig, gateway = devcluster.kubeconfig, installed
    assert helm_images(kubeconfig, tmp_path / "h", gateway.namespace, gateway.helm_release)[3] == 1
    cluster = gateway.cluster
    windows, opens = closed_now()
    set_windows(cluster, windows)
    gateway.image = "r.test/gw:2"
    gateway.save()

    run_pass(str(gateway.pk))
    held = Gateway.objects.get(pk=gateway.pk)
    assert (condition(held)["status"], condition(held)["reason"]) == ("False", "OutsideWindow")
    assert opens.isoformat() in condition(held)["message"]
    assert held.window_held_until == opens and held.next_attempt_at == opens
    assert held.observed_generation == held.generation - 1  # not applied, so not observed
    assert helm_images(kubeconfig, tmp_path / "h", gateway.namespace, gateway.helm_release)[:2] == IMAGES
    assert helm_images(kubeconfig, tmp_path / "h", gateway.namespace, gateway.helm_release)[3] == 1
    run_pass(str(gateway.pk))  # not due until the window: nothing runs
    assert helm_images(kubeconfig, tmp_path / "h", gateway.namespace, gateway.helm_release)[3] == 1

    set_windows(cluster, open_now())
    done = converge_by_passes(
        gateway,
        lambda current: (
            current.phase == "Running"
            and current.window_held_until is None
            and condition(current).get("status") == "True"
        ),
    )
    assert condition(done)["reason"] == "WindowOpen" and done.next_attempt_at is None
    image, _, _, revisions = helm_images(kubeconfig, tmp_path / "h", gateway.namespace, gateway.helm_release)
    assert (image, revisions) == ("r.test/gw:2", 2)


def test_a_wave_waits_for_its_window_a_freeze_holds_it_and_an_override_starts_it(
    devcluster, installed, admin_user, tmp_path
) -> None:
    kubeconfig, gateway = devcluster.kubeconfig, installed
    cluster = gateway.cluster
    v2 = GatewayRelease.objects.create(name="v2", chart=str(MIRROR_CHART), values={"image": {"pullPolicy": "Always"}})
    rollout = create_rollout(Rollout(name="r", target_release=v2, wave_percentages=[100]))
    for _ in range(2):
        advance(str(rollout.pk))
    rollout.refresh_from_db()
    target = rollout.targets.get()
    assert rollout.phase == "Progressing" and target.state == "pending"
    waiting = condition(rollout)
    assert (waiting["status"], waiting["reason"]) == ("False", "OutsideWindow")
    assert "edge waits: cluster win: Waiting for the next maintenance window, at" in waiting["message"]
    assert Gateway.objects.get(pk=gateway.pk).release.name == "v1"

    # Inside an allowed window, but frozen: still waiting.
    frozen = {
        **open_now(),
        "freezes": [
            {
                "start": (timezone.now() - timedelta(hours=1)).isoformat(),
                "end": (timezone.now() + timedelta(hours=3)).isoformat(),
            }
        ],
    }
    set_windows(cluster, frozen)
    advance(str(rollout.pk))
    rollout.refresh_from_db()
    assert rollout.targets.get().state == "pending" and condition(rollout)["status"] == "False"

    until = override_window(cluster, admin_user, "CVE-2026-0001 hotfix", 60)
    entry = AuditEntry.objects.get(action="override-window", resource_id=str(cluster.pk))
    assert entry.actor_name == admin_user.username
    assert entry.changes == {"reason": "CVE-2026-0001 hotfix", "until": until.isoformat()}
    advance(str(rollout.pk))
    rollout.refresh_from_db()
    assert rollout.targets.get().state == "upgrading"
    assert (condition(rollout)["status"], condition(rollout)["reason"]) == ("True", "NothingHeld")
    # The override ends before the gateway's pass: the wave finishes the gateway it started inside the window.
    ManagedCluster.objects.filter(pk=cluster.pk).update(window_override_until=timezone.now() - timedelta(seconds=1))
    done = converge_by_passes(
        gateway, lambda current: current.phase == "Running" and current.deployed_release_id == v2.pk
    )
    assert done.release.name == "v2"
    assert helm_images(kubeconfig, tmp_path / "h", gateway.namespace, gateway.helm_release)[3] == 2
