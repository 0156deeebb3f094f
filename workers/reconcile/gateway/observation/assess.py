"""Classify what the cluster holds for a gateway, from the pass's request and its view alone (pure): the release's
state, and its drift from the manifest."""

from __future__ import annotations

from workers.reconcile.gateway.observation.drift import Drift, remembered_drift
from workers.reconcile.gateway.observation.state import Observed, State, determine_state
from workers.reconcile.gateway.observation.view import GatewayView
from workers.reconcile.gateway.request import DriftMode, GatewayRequest

__all__ = ["assess", "detect_drift"]


def detect_drift(request: GatewayRequest, view: GatewayView) -> list[Drift] | None:
    """The release's objects the cluster lacks or holds otherwise (pure); None when not compared."""
    if request.drift_detection is DriftMode.DISABLED or view.release is None or not view.namespace_present:
        return None
    if view.drift is not None:
        return list(view.drift)
    return remembered_drift(
        view.release.manifest, view.objects, namespace=request.namespace, release=request.release, kinds=view.kinds
    )


def assess(request: GatewayRequest, view: GatewayView, chart_version: str) -> State:
    """Classify what the cluster holds for a gateway, from its view alone (pure)."""
    record = view.release
    observed = Observed(
        release_status=record.status.status if record else None,
        chart_version=record.status.chart_version if record else None,
        last_deployed=record.status.last_deployed if record else None,
        applied_values=record.values if record else None,
        workload_present=bool(view.workloads) and view.namespace_present,
        drifted=request.drift_detection is DriftMode.ENABLED and bool(detect_drift(request, view)),
    )
    return determine_state(
        observed,
        desired_values=request.values or {},
        chart_version=chart_version,
        now=request.now,
        pending_timeout=request.timing.pending_timeout,
    )
