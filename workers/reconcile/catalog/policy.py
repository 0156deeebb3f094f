"""Failure classification, the retry policy and poll timing for catalogs (pure; callers pass randomness)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta

from controlplane.imageref import InvalidImageRefError
from workers.drivers.errors import DriverError, sanitise
from workers.drivers.oci_errors import InvalidImage, TooLarge
from workers.fbc.parse import FBCError
from workers.fbc.untar import LayerError
from workers.reconcile.retry import RetryPolicy

__all__ = ["RETRY", "Failure", "classify", "poll_seconds"]

# Bad content: pulling the same digest again cannot help. Anything else may pass on a retry.
TERMINAL = (FBCError, LayerError, InvalidImage, TooLarge, InvalidImageRefError)
MAX_MESSAGE_CHARS = 1024
POLL_JITTER = 0.1
# Catalogs never stall on retryable failures (a registry comes back); terminal ones end Blocked at once.
RETRY = RetryPolicy(base=timedelta(seconds=10), cap=timedelta(minutes=10), max_failures=None, jitter=0.2)


@dataclass(frozen=True)
class Failure:
    terminal: bool
    message: str


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
