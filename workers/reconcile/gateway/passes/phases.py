"""Phase rules for gateways: a pure function, the caller supplies the clock (retries: ``reconcile.retry``)."""

from __future__ import annotations

from datetime import datetime, timedelta

from gateways.states import Phase

__all__ = ["phase_for"]


def phase_for(
    *,
    deleting: bool,
    stalled: bool,
    released: bool,
    ready: bool,
    was_running: bool,
    deployed_at: datetime | None,
    now: datetime,
    grace: timedelta,
) -> Phase:
    """The one phase that summarises a pass. Degraded is recoverable; Failed needs a change or a retry.

    A release deployed less than ``grace`` ago is still rolling out, so an unready workload is Provisioning even on
    a gateway that was Running (as Flux and Argo CD report Progressing during a rollout); later, it is Degraded."""
    if deleting:
        return Phase.DELETING
    if stalled:
        return Phase.FAILED
    if not released:
        return Phase.PROVISIONING if deployed_at or was_running else Phase.PENDING
    if ready:
        return Phase.RUNNING
    if deployed_at is not None and now - deployed_at <= grace:
        return Phase.PROVISIONING
    return Phase.DEGRADED if was_running or deployed_at is not None else Phase.PROVISIONING
