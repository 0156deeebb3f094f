"""Uninstall the release, for a gateway being deleted; a release already gone is fine."""

from __future__ import annotations

from gateways.states import Reason
from workers.drivers import errors
from workers.reconcile.gateway.observation.view import GatewayView
from workers.reconcile.gateway.outcome import GatewayOutcome
from workers.reconcile.gateway.pass_io import PassIo
from workers.reconcile.gateway.request import GatewayRequest

__all__ = ["run"]


def run(request: GatewayRequest, io: PassIo, view: GatewayView | None) -> GatewayOutcome:
    outcome = GatewayOutcome()
    try:
        io.helm.uninstall(io.target, request.release)
    except errors.ReleaseNotFound:
        return outcome
    outcome.event(Reason.UNINSTALL_SUCCEEDED, f"helm uninstall of {request.release}")
    return outcome
