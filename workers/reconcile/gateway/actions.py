"""The four Helm actions, one interface: ``action(request, io, view, result)``, where ``view`` is what the pass
observed before choosing it (None for uninstall, which deletion runs without observing). Each runs once, and
reports its condition and event in ``PassResult``.

Driver errors propagate; the loop turns them into a failed attempt with backoff.
"""

from __future__ import annotations

from controlplane.conditions import ConditionStatus
from gateways.states import ConditionType, Reason
from workers.drivers import errors
from workers.reconcile.gateway.io import PassIo
from workers.reconcile.gateway.observe import GatewayView
from workers.reconcile.gateway.request import GatewayRequest
from workers.reconcile.gateway.result import PassResult

__all__ = ["install", "uninstall", "unlock", "upgrade"]


def install(request: GatewayRequest, io: PassIo, view: GatewayView | None, result: PassResult) -> None:
    release = io.helm.install(io.target, request.release, io.chart.ref, request.values or {}, version=io.chart.version)
    result.release = release
    result.condition(ConditionType.RELEASED, ConditionStatus.TRUE, Reason.INSTALL_SUCCEEDED,
                     f"Installed revision {release.revision}")
    result.event(Reason.INSTALL_SUCCEEDED, f"helm install of {request.release} revision {release.revision}")
    result.failure_count, result.next_attempt_at = 0, None


def upgrade(request: GatewayRequest, io: PassIo, view: GatewayView | None, result: PassResult) -> None:
    release = io.helm.upgrade(
        io.target, request.release, io.chart.ref, request.values or {}, version=io.chart.version, reset_values=True
    )
    result.release = release
    result.condition(ConditionType.RELEASED, ConditionStatus.TRUE, Reason.UPGRADE_SUCCEEDED,
                     f"Upgraded to revision {release.revision}")
    result.event(Reason.UPGRADE_SUCCEEDED, f"helm upgrade of {request.release} to revision {release.revision}")
    result.failure_count, result.next_attempt_at = 0, None


def uninstall(request: GatewayRequest, io: PassIo, view: GatewayView | None, result: PassResult) -> None:
    try:
        io.helm.uninstall(io.target, request.release)
    except errors.ReleaseNotFound:
        return
    result.event(Reason.UNINSTALL_SUCCEEDED, f"helm uninstall of {request.release}")


def unlock(request: GatewayRequest, io: PassIo, view: GatewayView | None, result: PassResult) -> None:
    """Drop the stuck pending revision's record (the latest one ``view`` holds), so Helm sees the last settled
    revision again."""
    assert view is not None and view.release is not None, "unlock runs on an observed, stuck release"
    revision, status = view.release.status.revision, view.release.status.status
    io.kube.delete("Secret", request.namespace, f"sh.helm.release.v1.{request.release}.v{revision}")
    result.event(Reason.UNLOCKED, f"revision {revision} was stuck in {status}; its record was removed", warning=True)
