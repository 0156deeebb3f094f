"""Install the release: the gateway has none yet."""

from __future__ import annotations

from cluster_vocabulary.kubernetes import ConditionStatus
from gateways.states import ConditionType, Reason
from workers.reconcile.gateway.observation.view import GatewayView
from workers.reconcile.gateway.pass_io import PassIo
from workers.reconcile.gateway.request import GatewayRequest
from workers.reconcile.outcome import Outcome

__all__ = ["run"]


def run(request: GatewayRequest, io: PassIo, view: GatewayView | None, outcome: Outcome) -> None:
    release = io.helm.install(io.target, request.release, io.chart.ref, request.values or {}, version=io.chart.version)
    outcome.release = release
    outcome.condition(
        ConditionType.RELEASED, ConditionStatus.TRUE, Reason.INSTALL_SUCCEEDED, f"Installed revision {release.revision}"
    )
    outcome.event(Reason.INSTALL_SUCCEEDED, f"helm install of {request.release} revision {release.revision}")
    outcome.failure_count, outcome.next_attempt_at = 0, None
