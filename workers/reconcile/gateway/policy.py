"""Retry policy and phase rules for gateways: pure functions, the caller supplies the clock."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

__all__ = ["RetryPolicy", "phase_for"]


@dataclass(frozen=True)
class RetryPolicy:
    """Consecutive failures back off base, 2*base, 4*base, ... capped; after ``max_failures`` we stall."""

    base: timedelta = timedelta(minutes=1)
    cap: timedelta = timedelta(minutes=15)
    max_failures: int = 5

    def delay(self, failures: int) -> timedelta:
        """The wait after the ``failures``-th consecutive failure (1-based)."""
        if failures < 1:
            return timedelta(0)
        return min(self.base * (2 ** (failures - 1)), self.cap)

    def next_attempt(self, failures: int, now: datetime) -> datetime:
        return now + self.delay(failures)

    def exhausted(self, failures: int) -> bool:
        return failures >= self.max_failures


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
) -> str:
    """The one phase that summarises a pass. Degraded is recoverable; Failed needs a change or a retry."""
    if deleting:
        return "Deleting"
    if stalled:
        return "Failed"
    if not released:
        return "Provisioning" if deployed_at or was_running else "Pending"
    if ready:
        return "Running"
    if was_running or (deployed_at is not None and now - deployed_at > grace):
        return "Degraded"
    return "Provisioning"
