"""Readiness of a release's objects as returned by the Kubernetes API (pure)."""

from __future__ import annotations

from typing import Any

from workers.drivers.kube_vocabulary import ConditionStatus, RouteConditionType

__all__ = ["backend_tls_ready", "route_ready", "workload_ready"]


def _workload_is_ready(obj: dict[str, Any]) -> bool:
    spec, status = obj.get("spec", {}), obj.get("status", {})
    wanted = spec.get("replicas", 1)
    generation = obj.get("metadata", {}).get("generation", 0)
    return (
        status.get("observedGeneration", 0) >= generation
        and status.get("readyReplicas", 0) >= wanted
        and status.get("updatedReplicas", wanted) >= wanted
    )


def workload_ready(workloads: list[dict[str, Any]]) -> bool:
    """Every Deployment and StatefulSet of the release has all replicas ready at its current generation."""
    return bool(workloads) and all(_workload_is_ready(obj) for obj in workloads)


def _conditions_true(conditions: list[dict[str, Any]], wanted: str) -> bool:
    return any(c.get("type") == wanted and c.get("status") == ConditionStatus.TRUE for c in conditions)


def _any_true(entries: list[dict[str, Any]], wanted: str) -> bool:
    """Whether one of the route's parents (or routers) reports ``wanted`` as True."""
    return any(_conditions_true(entry.get("conditions", []), wanted) for entry in entries)


def route_ready(routes: list[dict[str, Any]]) -> bool:
    """A GRPCRoute accepted by a parent gateway, or an OpenShift Route admitted by a router."""
    if not routes:
        return False
    for route in routes:
        status = route.get("status", {})
        if route.get("kind") == "Route":
            ok = _any_true(status.get("ingress", []), RouteConditionType.ADMITTED)
        else:
            ok = _any_true(status.get("parents", []), RouteConditionType.ACCEPTED)
        if not ok:
            return False
    return True


def backend_tls_ready(policy: dict[str, Any] | None) -> bool:
    """A BackendTLSPolicy that some ancestor (Gateway) accepted with its references resolved (GEP-1897 status)."""
    if policy is None:
        return False
    for ancestor in (policy.get("status") or {}).get("ancestors") or []:
        conditions = ancestor.get("conditions") or []
        unresolved = any(
            c.get("type") == RouteConditionType.RESOLVED_REFS and c.get("status") == ConditionStatus.FALSE
            for c in conditions
        )
        if _conditions_true(conditions, RouteConditionType.ACCEPTED) and not unresolved:
            return True
    return False
