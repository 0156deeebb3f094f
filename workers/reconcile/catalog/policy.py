"""Failure classification, retry backoff and poll timing for catalogs (pure; callers pass randomness)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from controlplane.imageref import InvalidImageRefError
from workers.drivers.errors import DriverError, sanitise
from workers.drivers.oci_errors import InvalidImage, TooLarge
from workers.fbc.parse import FBCError
from workers.fbc.untar import LayerError

__all__ = ["Failure", "RetryPolicy", "classify", "poll_seconds"]

# Bad content: pulling the same digest again cannot help. Anything else may pass on a retry.
TERMINAL = (FBCError, LayerError, InvalidImage, TooLarge, InvalidImageRefError)
MAX_MESSAGE_CHARS = 1024
POLL_JITTER = 0.1


@dataclass(frozen=True)
class Failure:
    terminal: bool
    message: str


@dataclass(frozen=True)
class RetryPolicy:
    """Retry n waits base * 2**(n-1), capped, scaled by a jitter factor in [1 - jitter, 1]."""

    base_seconds: float = 10.0
    cap_seconds: float = 600.0
    jitter: float = 0.2

    def delay(self, attempt: int, random_unit: float) -> float:
        raw = min(self.base_seconds * 2 ** max(attempt - 1, 0), self.cap_seconds)
        return raw * (1 - self.jitter * random_unit)


def classify(exc: BaseException, secrets: Iterable[str]) -> Failure:
    """Terminal (Blocked) or retryable (Retrying), with a message safe to store and show."""
    if isinstance(exc, (*TERMINAL, DriverError)):
        message = str(exc)
    else:
        message = f"unexpected {type(exc).__name__} while reconciling; see the worker log"
    return Failure(terminal=isinstance(exc, TERMINAL), message=sanitise(message, secrets)[:MAX_MESSAGE_CHARS])


def poll_seconds(interval_minutes: int, random_unit: float) -> float:
    """The next poll of a tag ref: the interval, spread by +/- POLL_JITTER so catalogs do not align."""
    return interval_minutes * 60 * (1 + POLL_JITTER * (2 * random_unit - 1))
