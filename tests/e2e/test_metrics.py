"""End to end: the worker's pass and helm figures, and the fleet gauges, on a scrape of the live API."""

from __future__ import annotations

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from tests.e2e.test_gateway_lifecycle import gateway_body
from tests.fixtures.stack import Stack
from tests.waiting import wait_until

pytestmark = pytest.mark.e2e

Figures = dict[tuple[str, frozenset], float]


def scrape(stack: Stack) -> Figures:
    response = requests.get(f"{stack.api_url}/metrics", timeout=10)
    assert response.status_code == 200, response.text
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(response.text)
        for s in family.samples
    }


def total(figures: Figures, name: str, **labels: str) -> float:
    """The sum of every ``name`` series that has ``labels``."""
    return sum(v for (n, have), v in figures.items() if n == name and set(labels.items()) <= have)


def quiet(stack: Stack) -> Figures:
    """A scrape once helm has been idle for a second: no earlier test's pass is still under way."""
    previous: list[Figures | None] = [None]

    def check() -> Figures | None:
        latest = scrape(stack)
        before, previous[0] = previous[0], latest
        if before is None:
            return None
        return latest if total(before, "helm_invocations_total") == total(latest, "helm_invocations_total") else None

    return wait_until(check, "helm to be idle", timeout=60, interval=1)  # the same count a second apart


def test_a_new_gateway_shows_on_metrics(live_stack, tenant, wait_for_phase, gateway_cluster, register) -> None:
    register(gateway_cluster, "metered")
    before = quiet(live_stack)
    created = tenant.post("/api/v1/gateways/", json=gateway_body("metered", name="metered"))
    assert created.status_code == 201, created.text
    wait_for_phase(created.json()["id"], "Running")

    def delta(figures: Figures, name: str, **labels: str) -> float:
        return total(figures, name, **labels) - total(before, name, **labels)

    def settled() -> tuple[Figures, int] | None:
        logged = live_stack.log("worker").count("gateway metered pass:")
        figures = scrape(live_stack)
        passes = delta(figures, "reconcile_passes_total", kind="gateway")
        timed = delta(figures, "reconcile_pass_duration_seconds_count", kind="gateway")
        probed = figures.get(("cluster_reachable", frozenset({("cluster", "metered")}))) == 1
        return (figures, logged) if logged >= 2 and passes >= logged and passes == timed and probed else None

    figures, logged = wait_until(settled, "the worker's figures to reach /metrics", timeout=60)
    assert delta(figures, "reconcile_passes_total", kind="gateway", result="requeued") >= 1  # installed, then watched
    assert delta(figures, "reconcile_passes_total", kind="gateway", result="failed") == 0
    assert delta(figures, "reconcile_pass_duration_seconds_bucket", kind="gateway", le="+Inf") >= logged
    assert delta(figures, "helm_invocations_total", command="install") == 1
    assert figures[("gateways", frozenset({("phase", "Running"), ("cluster", "metered")}))] == 1
    assert total(figures, "gateways", cluster="metered") == 1
    assert ("celery_queue_depth", frozenset({("queue", "celery")})) in figures
    assert figures[("celery_broker_up", frozenset())] == 1
