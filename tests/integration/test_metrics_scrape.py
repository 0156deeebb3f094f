"""``/metrics``: the fleet gauges from the database, and the queue depth from Redis, up or not."""

from __future__ import annotations

from datetime import timedelta

import pytest
import redis
from django.conf import settings
from django.test import Client
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from catalogs.models import Catalog
from controlplane.models import ManagedCluster
from gateways.choices import Phase
from gateways.models import Gateway, GatewayRelease
from rollouts.choices import RolloutPhase
from rollouts.models import Rollout
from tests.helpers import KUBECONFIG
from tests.listeners import Answer, listening

pytestmark = pytest.mark.integration


def scrape() -> dict[tuple[str, frozenset], float]:
    response = Client().get("/metrics")
    assert response.status_code == 200
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(response.content.decode())
        for s in family.samples
    }


def key(name: str, **labels: str) -> tuple[str, frozenset]:
    return name, frozenset(labels.items())


@pytest.mark.django_db
def test_gateways_by_phase_and_cluster_and_reachability(admin_user: object) -> None:
    east = ManagedCluster.objects.create(name="east", kubeconfig=KUBECONFIG, base_domain="e.test", reachable=True)
    west = ManagedCluster.objects.create(name="west", kubeconfig=KUBECONFIG, base_domain="w.test", reachable=False)
    ManagedCluster.objects.create(name="new", kubeconfig=KUBECONFIG, base_domain="n.test")
    for name, cluster, phase in [("a", east, Phase.RUNNING), ("b", east, Phase.RUNNING), ("c", west, Phase.FAILED)]:
        gateway = Gateway(
            owner=admin_user, cluster=cluster, name=name, image="r.io/g:1", supervisor_image="r.io/s:1", phase=phase
        )
        gateway.assign_namespace()
        gateway.save()
    figures = scrape()
    assert figures[key("gateways", phase="Running", cluster="east")] == 2
    assert figures[key("gateways", phase="Failed", cluster="west")] == 1
    assert figures[key("gateways", phase="Pending", cluster="east")] == 0
    assert sum(v for (name, _), v in figures.items() if name == "gateways") == 3
    assert len([name for name, _ in figures if name == "gateways"]) == 3 * len(Phase.values)
    reachable = {dict(labels)["cluster"]: v for (name, labels), v in figures.items() if name == "cluster_reachable"}
    assert reachable == {"east": 1, "west": 0, "new": 0}


def by_label(figures: dict[tuple[str, frozenset], float], name: str, label: str) -> dict[str, float]:
    return {dict(labels)[label]: v for (n, labels), v in figures.items() if n == name}


@pytest.mark.django_db
def test_retrying_gateways_rollouts_by_phase_and_catalogs_serving(admin_user: object) -> None:
    """The gauges the shipped alerts read: a Failed gateway is not retrying; a Halted rollout; a catalog whose
    Serving condition is False, with its reason."""
    east = ManagedCluster.objects.create(name="east", kubeconfig=KUBECONFIG, base_domain="e.test", reachable=True)
    held = timezone.now() + timedelta(hours=3)
    for name, phase, failures, waits in [
        ("a", Phase.PROVISIONING, 2, None),
        ("b", Phase.FAILED, 5, None),
        ("c", Phase.RUNNING, 0, held),
    ]:
        gateway = Gateway(
            owner=admin_user,
            cluster=east,
            name=name,
            image="r.io/g:1",
            supervisor_image="r.io/s:1",
            phase=phase,
            failure_count=failures,
            window_held_until=waits,
        )
        gateway.assign_namespace()
        gateway.save()
    release = GatewayRelease.objects.create(name="v2", chart="/charts/gateway")
    Rollout.objects.create(name="halted", target_release=release, phase=RolloutPhase.HALTED)
    Rollout.objects.create(name="done", target_release=release, phase=RolloutPhase.COMPLETED)
    Rollout.objects.create(name="waiting", target_release=release, phase=RolloutPhase.AWAITING_APPROVAL)
    serving = {"type": "Serving", "status": "True", "reason": "Available"}
    Catalog.objects.create(name="ok", image_ref="r.io/ok:v1", conditions=[serving])
    Catalog.objects.create(
        name="lost", image_ref="r.io/lost:v1", conditions=[{**serving, "status": "False", "reason": "ContentLost"}]
    )
    Catalog.objects.create(name="new", image_ref="r.io/new:v1")
    figures = scrape()
    assert by_label(figures, "gateways_retrying", "cluster") == {"east": 1}
    assert by_label(figures, "gateways_waiting_for_window", "cluster") == {"east": 1}
    assert by_label(figures, "rollouts", "phase") == {
        phase: (1 if phase in (RolloutPhase.HALTED, RolloutPhase.COMPLETED, RolloutPhase.AWAITING_APPROVAL) else 0)
        for phase in RolloutPhase.values
    }
    catalogs = {
        (dict(labels)["catalog"], dict(labels)["reason"]): v
        for (n, labels), v in figures.items()
        if n == "catalog_serving"
    }
    assert catalogs == {("ok", "Available"): 1, ("lost", "ContentLost"): 0, ("new", ""): 0}
    assert figures[key("catalogs_known")] == 3


@pytest.mark.django_db
def test_queue_depth_counts_every_priority_list() -> None:
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    broker.delete("celery", "celery\x06\x166")
    broker.rpush("celery", b"m1", b"m2")
    broker.rpush("celery\x06\x166", b"m3")
    try:
        figures = scrape()
    finally:
        broker.delete("celery", "celery\x06\x166")
    assert figures[key("celery_queue_depth", queue="celery")] == 3
    assert figures[key("celery_broker_up")] == 1


@pytest.mark.django_db
def test_scrape_gives_up_on_a_silent_broker_after_one_try(settings: object) -> None:
    """The broker (a port that accepts and never answers, like a hung Redis) still holds the one connection the
    scrape made when the scrape answers: the scrape gave up on its own timeout, and did not try again."""
    with listening(Answer.SILENCE) as broker:
        settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{broker.port}/0"  # type: ignore[attr-defined]
        figures = scrape()
    assert broker.count == 1
    assert figures[key("celery_broker_up")] == 0
    assert not [name for name, _ in figures if name == "celery_queue_depth"]
    assert key("catalogs_known") in figures


@pytest.mark.django_db
def test_scrape_answers_without_redis(settings: object) -> None:
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:9/0"  # type: ignore[attr-defined]
    figures = scrape()
    assert figures[key("celery_broker_up")] == 0
    assert not [name for name, _ in figures if name == "celery_queue_depth"]
    assert key("catalogs_known") in figures
