"""The chart's PrometheusRule and Grafana dashboard: the rules pass ``promtool check rules``, each alert fires on the
state it names and on nothing else (``promtool test rules``), and every metric they read is one /metrics serves."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from django.test import Client
from prometheus_client import REGISTRY, generate_latest

from tests.fixtures.alerts import (
    DASHBOARD,
    alerts,
    dashboard_exprs,
    evaluate,
    exposed_names,
    metric_names,
    promtool,
    rendered_rules,
    selector,
)

pytestmark = pytest.mark.integration


API_PODS = ({"instance": "10.0.0.1:8000"}, {"instance": "10.0.0.2:8000"})


def test_promtool_checks_the_rendered_rules(tmp_path: Path) -> None:
    rules = rendered_rules()
    (tmp_path / "rules.yaml").write_text(json.dumps(rules))
    checked = subprocess.run(
        [promtool(), "check", "rules", "rules.yaml"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"SUCCESS: {len(alerts(rules))} rules found" in checked.stdout + checked.stderr


def test_durations_and_thresholds_come_from_values() -> None:
    rules = alerts(
        rendered_rules("metrics.prometheusRule.gatewayDegradedFor=30m", "metrics.prometheusRule.queueDepthThreshold=7")
    )
    assert rules["ControlPlaneGatewayDegraded"]["for"] == "30m"
    assert rules["ControlPlaneQueueBacklog"]["expr"].endswith("> 7")


@pytest.mark.django_db
def test_the_rules_and_the_dashboard_read_only_metrics_the_api_serves() -> None:
    # The scrape, and the counters the worker processes count into it (a family shows once a process touched it).
    import controlplane.metrics  # noqa: F401  registers the worker-side counters

    exposed = exposed_names(Client().get("/metrics").content.decode() + generate_latest(REGISTRY).decode())
    read = {name: metric_names(rule["expr"]) for name, rule in alerts(rendered_rules()).items()}
    read |= {f"dashboard: {expr}": metric_names(expr) for expr in dashboard_exprs()}
    assert all(read.values()), read  # each reads at least one metric
    assert {where: names - exposed for where, names in read.items() if names - exposed} == {}


def test_the_dashboard_is_a_grafana_dashboard_on_a_datasource_variable() -> None:
    dashboard = json.loads(DASHBOARD.read_text())
    variables = {v["name"]: v for v in dashboard["templating"]["list"]}
    assert variables["datasource"]["type"] == "datasource" and variables["cluster"]["includeAll"]
    panels = dashboard["panels"]
    assert len({p["id"] for p in panels}) == len(panels) and all(p["targets"] for p in panels)
    assert {p["datasource"]["uid"] for p in panels} == {"${datasource}"}


def on_every_pod(name: str, labels: dict[str, str], value: float) -> dict[str, float]:
    """One gauge as each API pod serves it (the same figure: it comes from the database)."""
    return {selector(name, {**labels, **pod}): value for pod in API_PODS}


def firing(alert: str, labels: dict[str, str], severity: str, summary: str, description: str) -> dict:
    return {
        alert: [
            {
                "exp_labels": {**labels, "severity": severity},
                "exp_annotations": {"summary": summary, "description": description},
            }
        ]
    }


HEALTHY = {
    **on_every_pod("gateways", {"phase": "Running", "cluster": "east"}, 3),
    **on_every_pod("gateways", {"phase": "Failed", "cluster": "east"}, 0),
    **on_every_pod("gateways", {"phase": "Degraded", "cluster": "east"}, 0),
    **on_every_pod("gateways_retrying", {"cluster": "east"}, 0),
    **on_every_pod("cluster_reachable", {"cluster": "east"}, 1),
    **on_every_pod("celery_queue_depth", {"queue": "celery"}, 2),
    **on_every_pod("celery_broker_up", {}, 1),
    **on_every_pod("rollouts", {"phase": "Halted"}, 0),
    **on_every_pod("catalog_serving", {"catalog": "ops", "reason": "Available"}, 1),
}
BROKEN = [
    (
        "gateways",
        {"phase": "Failed", "cluster": "east"},
        2,
        "ControlPlaneGatewayFailed",
        {"cluster": "east"},
        "critical",
        "2 gateway(s) Failed on cluster east",
    ),
    (
        "gateways",
        {"phase": "Degraded", "cluster": "east"},
        1,
        "ControlPlaneGatewayDegraded",
        {"cluster": "east"},
        "warning",
        "1 gateway(s) Degraded on cluster east",
    ),
    (
        "gateways_retrying",
        {"cluster": "east"},
        4,
        "ControlPlaneReconcileErrors",
        {"cluster": "east"},
        "warning",
        "4 gateway(s) on cluster east keep failing their reconcile passes",
    ),
    (
        "cluster_reachable",
        {"cluster": "east"},
        0,
        "ControlPlaneClusterUnreachable",
        {"cluster": "east"},
        "critical",
        "Cluster east does not answer the control plane",
    ),
    (
        "celery_queue_depth",
        {"queue": "celery"},
        500,
        "ControlPlaneQueueBacklog",
        {"queue": "celery"},
        "warning",
        "500 messages wait in Celery queue celery",
    ),
    (
        "celery_broker_up",
        {},
        0,
        "ControlPlaneBrokerDown",
        {},
        "critical",
        "The Celery broker (Redis) does not answer the API",
    ),
    ("rollouts", {"phase": "Halted"}, 1, "ControlPlaneRolloutHalted", {}, "warning", "1 rollout(s) Halted"),
    (
        "catalog_serving",
        {"catalog": "ops", "reason": "Available"},
        0,
        "ControlPlaneCatalogNotServing",
        {"catalog": "ops", "reason": "Available"},
        "warning",
        "Catalog ops is not serving (Available)",
    ),
]


def test_a_healthy_fleet_fires_nothing(tmp_path: Path) -> None:
    done = evaluate(tmp_path, rendered_rules(), HEALTHY, {})
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(
    ("metric", "labels", "value", "alert", "alert_labels", "severity", "summary"),
    BROKEN,
    ids=[case[3] for case in BROKEN],
)
def test_each_alert_fires_on_its_state_alone_and_counts_once_across_api_pods(
    tmp_path: Path,
    metric: str,
    labels: dict,
    value: float,
    alert: str,
    alert_labels: dict,
    severity: str,
    summary: str,
) -> None:
    rules = rendered_rules()
    series = {**HEALTHY, **on_every_pod(metric, labels, value)}
    expected = firing(alert, alert_labels, severity, summary, alerts(rules)[alert]["annotations"]["description"])
    done = evaluate(tmp_path, rules, series, expected)
    assert done.returncode == 0, done.stdout + done.stderr
    # The same state, but only for a shorter time than the rule's "for": nothing fires yet.
    early = evaluate(tmp_path, rules, series, {}, at="0m")
    assert early.returncode == 0, early.stdout + early.stderr
