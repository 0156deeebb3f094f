"""A plan as text for people."""

from __future__ import annotations

from cpctl.plans import describe, describe_wave_plan

PLAN = {
    "id": "p-1",
    "name": "edge",
    "cluster": "east",
    "status": "ready",
    "result": {
        "action": "upgrade",
        "reasons": ["values differ"],
        "namespace": "gw-edge",
        "release": None,
        "chart_version": "0.1.0",
        "kubernetes_version": "v1.31.0",
        "render_error": None,
        "unchanged_objects": 6,
        "values_diff": [
            {"path": "image.tag", "change": "changed", "before": "1.0.0", "after": "1.1.0"},
            {"path": "route.host", "change": "added", "before": None, "after": "e.example.com"},
        ],
        "objects": [
            {
                "api_version": "apps/v1",
                "kind": "StatefulSet",
                "namespace": "",
                "name": "edge",
                "change": "changed",
                "fields": [],
                "diff": "",
            }
        ],
        "prerequisites": [{"name": "Namespace", "state": "present", "message": "Namespace gw-edge exists"}],
    },
}


def test_describe_a_ready_plan() -> None:
    assert describe(PLAN).splitlines() == [
        "Plan p-1 for gateway edge on east: ready",
        "action: upgrade (chart 0.1.0, Kubernetes v1.31.0)",
        "  values differ",
        "values:",
        '  ~ image.tag: "1.0.0" -> "1.1.0"',
        '  + route.host: (none) -> "e.example.com"',
        "objects (6 unchanged):",
        "  ~ StatefulSet edge (apps/v1)",
        "prerequisites:",
        "  present: Namespace gw-edge exists",
    ]


def test_describe_a_plan_without_result() -> None:
    assert describe({**PLAN, "status": "pending", "result": None}) == "Plan p-1 for gateway edge on east: pending"


def test_describe_a_wave_plan_gateway_by_gateway() -> None:
    wave = {
        "wave": 1,
        "plan_hash": "ab" * 32,
        "state": "awaiting",
        "gateways": [{"gateway_id": "g-1", "gateway": "edge", "cluster": "east", "plan": PLAN["result"]}],
    }
    lines = describe_wave_plan("to-v2", wave).splitlines()
    assert lines[:4] == [
        f"Rollout to-v2, wave 1: plan {'ab' * 32} (awaiting), 1 gateways",
        "gateway edge on east:",
        "  action: upgrade (chart 0.1.0, Kubernetes v1.31.0)",
        "    values differ",
    ]
    assert '    ~ image.tag: "1.0.0" -> "1.1.0"' in lines
