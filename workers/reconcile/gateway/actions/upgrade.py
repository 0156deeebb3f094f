"""Upgrade the release to the desired chart and values (failed, out of sync, or drifted), values reset."""

from __future__ import annotations

from cluster_vocabulary.kubernetes import ConditionStatus
from gateways.states import ConditionType, Reason
from workers.reconcile.gateway.observation.view import GatewayView
from workers.reconcile.gateway.outcome import GatewayOutcome
from workers.reconcile.gateway.pass_io import PassIo
from workers.reconcile.gateway.request import GatewayRequest

__all__ = ["run"]


def run(request: GatewayRequest, io: PassIo, view: GatewayView | None) -> GatewayOutcome:
    release = io.helm.upgrade(
        io.target, request.release, io.chart.ref, request.values or {}, version=io.chart.version, reset_values=True
    )
    outcome = GatewayOutcome(release=release, failure_count=0, next_attempt_at=None)
    outcome.condition(
        ConditionType.RELEASED,
        ConditionStatus.TRUE,
        Reason.UPGRADE_SUCCEEDED,
        f"Upgraded to revision {release.revision}",
    )
    outcome.event(Reason.UPGRADE_SUCCEEDED, f"helm upgrade of {request.release} to revision {release.revision}")
    return outcome
