"""Install the release: the gateway has none yet."""

from __future__ import annotations

from cluster_vocabulary.kubernetes import ConditionStatus
from gateways.states import ConditionType, Reason
from workers.reconcile.gateway.observation.view import GatewayView
from workers.reconcile.gateway.outcome import GatewayOutcome
from workers.reconcile.gateway.pass_io import PassIo
from workers.reconcile.gateway.request import GatewayRequest

__all__ = ["run"]


def run(request: GatewayRequest, io: PassIo, view: GatewayView | None) -> GatewayOutcome:
    release = io.helm.install(io.target, request.release, io.chart.ref, request.values or {}, version=io.chart.version)
    outcome = GatewayOutcome(release=release, failure_count=0, next_attempt_at=None)
    outcome.condition(
        ConditionType.RELEASED, ConditionStatus.TRUE, Reason.INSTALL_SUCCEEDED, f"Installed revision {release.revision}"
    )
    outcome.event(Reason.INSTALL_SUCCEEDED, f"helm install of {request.release} revision {release.revision}")
    return outcome
