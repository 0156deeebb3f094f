"""Readiness of a release's objects as returned by the Kubernetes API (pure)."""

from __future__ import annotations

from typing import Any

from cluster_vocabulary.kubernetes import ConditionStatus, RouteConditionType

__all__ = ["backend_tls_ready", "backend_tls_refusals", "route_ready", "workload_ready"]


def _workload_is_ready(obj: dict[str, Any]) -> bool:
    """Every wanted replica ready and of the current template. The API leaves out a zero count (the fields are
    `omitempty`): just after a template change the controller has observed the new generation with no replica
    updated yet, and the status has no `updatedReplicas`, which means none, not all."""
    spec, status = obj.get("spec", {}), obj.get("status", {})
    wanted = spec.get("replicas", 1)
    generation = obj.get("metadata", {}).get("generation", 0)
    return (
        status.get("observedGeneration", 0) >= generation
        and status.get("readyReplicas", 0) >= wanted
        and status.get("updatedReplicas", 0) >= wanted
    )


def workload_ready(workloads: list[dict[str, Any]]) -> bool:
    """Every Deployment and StatefulSet of the release has all replicas ready at its current generation."""
    return bool(workloads) and all(_workload_is_ready(obj) for obj in workloads)


def _conditions_true(conditions: list[dict[str, Any]], wanted: str, generation: int = 0) -> bool:
    """A `wanted` condition is True, and was set for the object's current `generation`: a controller that has not
    yet seen a change leaves its earlier verdict, with the earlier `observedGeneration` (Gateway API GEP-1364)."""
    return any(
        c.get("type") == wanted
        and c.get("status") == ConditionStatus.TRUE
        and c.get("observedGeneration", generation) >= generation
        for c in conditions
    )


def _any_true(entries: list[dict[str, Any]], wanted: str, generation: int = 0) -> bool:
    """Whether one of the route's parents (or routers) reports ``wanted`` as True at ``generation``."""
    return any(_conditions_true(entry.get("conditions", []), wanted, generation) for entry in entries)


def route_ready(routes: list[dict[str, Any]]) -> bool:
    """A GRPCRoute accepted by a parent gateway, or an OpenShift Route admitted by a router."""
    if not routes:
        return False
    for route in routes:
        status = route.get("status", {})
        generation = route.get("metadata", {}).get("generation", 0)
        if route.get("kind") == "Route":
            ok = _any_true(status.get("ingress", []), RouteConditionType.ADMITTED)
        else:
            ok = _any_true(status.get("parents", []), RouteConditionType.ACCEPTED, generation)
        if not ok:
            return False
    return True


def backend_tls_ready(policy: dict[str, Any] | None) -> bool:
    """A BackendTLSPolicy that some ancestor (Gateway) accepted with its references resolved (GEP-1897 status)."""
    if policy is None:
        return False
    generation = (policy.get("metadata") or {}).get("generation", 0)
    for ancestor in (policy.get("status") or {}).get("ancestors") or []:
        conditions = ancestor.get("conditions") or []
        unresolved = any(
            c.get("type") == RouteConditionType.RESOLVED_REFS and c.get("status") == ConditionStatus.FALSE
            for c in conditions
        )
        if _conditions_true(conditions, RouteConditionType.ACCEPTED, generation) and not unresolved:
            return True
    return False


def backend_tls_refusals(policy: dict[str, Any] | None) -> list[str]:
    """What the Gateway API controller says against a BackendTLSPolicy: the messages of its False Accepted and
    ResolvedRefs conditions, once each, in the controller's words (empty: none said yet)."""
    messages: list[str] = []
    for ancestor in ((policy or {}).get("status") or {}).get("ancestors") or []:
        for condition in ancestor.get("conditions") or []:
            refused = condition.get("type") in (RouteConditionType.ACCEPTED, RouteConditionType.RESOLVED_REFS)
            said = f"{condition.get('reason', '')}: {condition.get('message', '')}"
            if refused and condition.get("status") == ConditionStatus.FALSE and said not in messages:
                messages.append(said)
    return messages
