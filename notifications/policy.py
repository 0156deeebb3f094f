"""Delivery retry policy (pure): what an attempt's outcome means, and when the next attempt is due."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from notifications.choices import DeliveryStatus

__all__ = ["RETRYABLE_STATUSES", "DeliveryRetryPolicy", "DeliveryVerdict", "judge"]

# Answers worth another attempt; any other non-2xx answer is final (the receiver refused this request).
RETRYABLE_STATUSES = frozenset({408, 425, 429, 500, 502, 503, 504})


@dataclass(frozen=True)
class DeliveryRetryPolicy:
    base_seconds: float
    cap_seconds: float
    max_attempts: int

    def delay(self, attempts: int) -> timedelta:
        """The wait after the ``attempts``-th failed attempt: base, 2x base, 4x base... capped."""
        return timedelta(seconds=min(self.base_seconds * 2 ** max(attempts - 1, 0), self.cap_seconds))


@dataclass(frozen=True)
class DeliveryVerdict:
    status: DeliveryStatus
    next_attempt_at: datetime | None = None


def judge(
    policy: DeliveryRetryPolicy, attempts: int, now: datetime, *, status_code: int | None, retryable_error: bool = False
) -> DeliveryVerdict:
    """After attempt number ``attempts``: delivered, pending again (with when), or failed for good.

    ``status_code`` is the receiver's answer (None when there was none); ``retryable_error`` says a
    missing answer was a connection failure or timeout rather than a refused URL."""
    if status_code is not None and 200 <= status_code < 300:
        return DeliveryVerdict(DeliveryStatus.DELIVERED)
    retryable = status_code in RETRYABLE_STATUSES if status_code is not None else retryable_error
    if not retryable or attempts >= policy.max_attempts:
        return DeliveryVerdict(DeliveryStatus.FAILED)
    return DeliveryVerdict(DeliveryStatus.PENDING, now + policy.delay(attempts))
