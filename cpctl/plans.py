"""A gateway plan (``GatewayPlan.to_dict()``) as text for people: the action, then what would change."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = ["describe", "describe_result", "describe_wave_plan"]

MARKS = {"added": "+", "removed": "-", "changed": "~"}


def _value(value: Any) -> str:
    return json.dumps(value) if value is not None else "(none)"


def describe_result(result: Mapping[str, Any]) -> list[str]:
    """A plan's result: its action and reasons, values diff, the objects it would change and the prerequisites."""
    lines = [
        f"action: {result['action']} (chart {result['chart_version']}, "
        f"Kubernetes {result.get('kubernetes_version') or 'unknown'})"
    ]
    lines.extend(f"  {reason}" for reason in result.get("reasons", []))
    if result.get("render_error"):
        lines.append(f"render error: {result['render_error']}")
    if result.get("values_diff"):
        lines.append("values:")
        lines.extend(
            f"  {MARKS[c['change']]} {c['path']}: {_value(c.get('before'))} -> {_value(c.get('after'))}"
            for c in result["values_diff"]
        )
    lines.append(f"objects ({result.get('unchanged_objects', 0)} unchanged):")
    lines.extend(f"  {MARKS[o['change']]} {o['kind']} {o['name']} ({o['api_version']})" for o in result["objects"])
    if result.get("prerequisites"):
        lines.append("prerequisites:")
        lines.extend(f"  {c['state']}: {c['message']}" for c in result["prerequisites"])
    return lines


def describe(plan: Mapping[str, Any]) -> str:
    """The plan's header, then its result (once there is one)."""
    result = plan.get("result") or {}
    lines = [f"Plan {plan['id']} for gateway {plan['name']} on {plan['cluster']}: {plan['status']}"]
    return "\n".join(lines + (describe_result(result) if result else []))


def describe_wave_plan(rollout: str, plan: Mapping[str, Any]) -> str:
    """A rollout wave's plan (``WavePlan.to_dict()``): its hash and state, then each gateway's plan, indented."""
    lines = [
        f"Rollout {rollout}, wave {plan['wave']}: plan {plan['plan_hash']} ({plan['state']}), "
        f"{len(plan['gateways'])} gateways"
    ]
    for gateway in plan["gateways"]:
        lines.append(f"gateway {gateway['gateway']} on {gateway['cluster']}:")
        lines.extend(f"  {line}" for line in describe_result(gateway["plan"]))
    return "\n".join(lines)
