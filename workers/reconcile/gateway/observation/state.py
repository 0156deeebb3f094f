"""Observe a release and classify it into one closed set of states (pure; no I/O)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from cluster_vocabulary.helm import HelmStatus

__all__ = ["Observed", "State", "determine_state"]


class State(enum.Enum):
    ABSENT = "Absent"  # no release: install
    OUT_OF_SYNC = "OutOfSync"  # deployed, but values or chart differ: upgrade
    DRIFTED = "Drifted"  # deployed and current, but its workload is gone or its objects drifted: upgrade to repair
    LOCKED = "Locked"  # a pending-* operation older than the timeout: unlock
    BUSY = "Busy"  # a pending-* operation that may still be running: wait
    FAILED = "Failed"  # the last operation failed: upgrade --reset-values under backoff
    IN_SYNC = "InSync"  # deployed and current: check health


@dataclass(frozen=True)
class Observed:
    """What one pass saw of the release (None when it does not exist), of its workload, and whether drift
    that should be repaired was found."""

    release_status: str | None
    chart_version: str | None
    last_deployed: datetime | None
    applied_values: dict[str, Any] | None
    workload_present: bool
    drifted: bool = False


def determine_state(
    observed: Observed, *, desired_values: dict[str, Any], chart_version: str, now: datetime, pending_timeout: timedelta
) -> State:
    status = observed.release_status
    if status is None or status == HelmStatus.UNINSTALLED:
        return State.ABSENT
    if status.startswith("pending-") or status == HelmStatus.UNINSTALLING:
        started = observed.last_deployed
        return State.LOCKED if started is None or now - started > pending_timeout else State.BUSY
    if status != HelmStatus.DEPLOYED:
        return State.FAILED
    if observed.chart_version != chart_version or observed.applied_values != desired_values:
        return State.OUT_OF_SYNC
    if not observed.workload_present or observed.drifted:
        return State.DRIFTED
    return State.IN_SYNC
