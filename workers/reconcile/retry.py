"""The one retry policy of every reconciler: consecutive failures back off exponentially (pure).

Failure n (1-based) waits ``base * 2**(n-1)``, capped (the exponent too, so no count overflows),
optionally shortened by a jitter factor in ``[1 - jitter, 1]`` (the caller passes the random unit). With
``max_failures`` the object stalls after that many consecutive failures; without it, it retries forever.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

__all__ = ["RetryPolicy"]


@dataclass(frozen=True)
class RetryPolicy:
    base: timedelta = timedelta(minutes=1)
    cap: timedelta = timedelta(minutes=15)
    max_failures: int | None = 5
    jitter: float = 0.0

    def delay(self, failures: int, random_unit: float = 0.0) -> timedelta:
        """The wait after the ``failures``-th consecutive failure."""
        if failures < 1 or not self.base:
            return timedelta(0)
        doublings = min(failures - 1, (self.cap // self.base).bit_length())  # enough to pass the cap, never more
        return min(self.base * 2**doublings, self.cap) * (1 - self.jitter * random_unit)

    def next_attempt(self, failures: int, now: datetime, random_unit: float = 0.0) -> datetime:
        return now + self.delay(failures, random_unit)

    def exhausted(self, failures: int) -> bool:
        return self.max_failures is not None and failures >= self.max_failures
