"""The sliding-window rate estimate (pure): two fixed-window counts stand in for a log of every request.

The estimate weighs the previous window's count by how much of it still overlaps the sliding window:
``previous * (1 - elapsed / duration) + current``. It costs two counters per client, whatever its rate.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["RateVerdict", "judge", "window_of"]

# The estimate must fall below the limit, not reach it: a retry comes this much after the crossing.
MARGIN_SECONDS = 0.001


@dataclass(frozen=True)
class RateVerdict:
    """Whether the request may go ahead and, if not, how many seconds until one would."""

    allowed: bool
    retry_after: float = 0.0


def window_of(now: float, duration: int) -> int:
    """The number of the fixed window ``now`` falls in."""
    return int(now // duration)


def judge(limit: int, duration: int, previous: int, current: int, now: float) -> RateVerdict:
    """Allow while the estimate is below ``limit``; else the time until it is (at most two windows)."""
    elapsed = now % duration
    estimate = previous * (1 - elapsed / duration) + current
    if estimate < limit:
        return RateVerdict(True)
    to_next = duration - elapsed
    if current < limit:
        # Then previous > 0, and its weight fades by previous / duration a second: below the limit this window.
        return RateVerdict(False, min((estimate - limit) / previous * duration + MARGIN_SECONDS, to_next))
    # The current count alone is at the limit: it fades once it is the previous window's, and is gone a window on.
    return RateVerdict(False, min(to_next + (1 - limit / current) * duration + MARGIN_SECONDS, to_next + duration))
