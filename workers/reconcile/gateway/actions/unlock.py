"""Unlock a release stuck in a pending state past its timeout."""

from __future__ import annotations

from gateways.states import Reason
from workers.reconcile.gateway.observation.view import GatewayView
from workers.reconcile.gateway.outcome import GatewayOutcome
from workers.reconcile.gateway.pass_io import PassIo
from workers.reconcile.gateway.request import GatewayRequest

__all__ = ["run"]


def run(request: GatewayRequest, io: PassIo, view: GatewayView | None) -> GatewayOutcome:
    """Drop the stuck pending revision's record (the latest one ``view`` holds), so Helm sees the last settled
    revision again."""
    assert view is not None and view.release is not None, "unlock runs on an observed, stuck release"
    revision, status = view.release.status.revision, view.release.status.status
    outcome = GatewayOutcome()
    io.kube.delete("Secret", request.namespace, f"sh.helm.release.v1.{request.release}.v{revision}")
    outcome.event(Reason.UNLOCKED, f"revision {revision} was stuck in {status}; its record was removed", warning=True)
    return outcome
