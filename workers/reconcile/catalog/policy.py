"""Failure classification, the retry policy and poll timing for catalogs (pure; callers pass randomness)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta

from catalogs.choices import Reason
from controlplane.imageref import InvalidImageRefError
from workers.drivers.cosign import SignatureInvalid
from workers.drivers.errors import DriverError, sanitise
from workers.drivers.oci_errors import InvalidImage, TooLarge
from workers.fbc.parse import FBCError
from workers.fbc.untar import LayerError
from workers.reconcile.retry import RetryPolicy

__all__ = ["RETRY", "Failure", "classify", "poll_seconds"]

# Bad content: pulling the same digest again cannot help. Anything else may pass on a retry.
TERMINAL = (FBCError, LayerError, InvalidImage, TooLarge, InvalidImageRefError, SignatureInvalid)
# Terminal failures with a reason of their own (Progressing says it instead of Blocked).
REASONS: dict[type[Exception], str] = {SignatureInvalid: Reason.SIGNATURE_INVALID}
MAX_MESSAGE_CHARS = 1024
POLL_JITTER = 0.1
# Catalogs never stall on retryable failures (a registry comes back); terminal ones end Blocked at once.
RETRY = RetryPolicy(base=timedelta(seconds=10), cap=timedelta(minutes=10), max_failures=None, jitter=0.2)


@dataclass(frozen=True)
class Failure:
    """``reason`` is the Progressing reason; empty means the default (Blocked when terminal, else Retrying)."""

    terminal: bool
    message: str
    reason: str = ""


def classify(exc: BaseException, secrets: Iterable[str]) -> Failure:
    """Terminal (Blocked) or retryable (Retrying), with a message safe to store and show."""
    if isinstance(exc, (*TERMINAL, DriverError)):
        message = str(exc)
    else:
        message = f"unexpected {type(exc).__name__} while reconciling; see the worker log"
    reason = next((reason for kind, reason in REASONS.items() if isinstance(exc, kind)), "")
    return Failure(
        terminal=isinstance(exc, TERMINAL), message=sanitise(message, secrets)[:MAX_MESSAGE_CHARS], reason=reason
    )


def poll_seconds(interval_minutes: int, random_unit: float) -> float:
    """The next poll of a tag ref: the interval, spread by +/- POLL_JITTER so catalogs do not align."""
    return interval_minutes * 60 * (1 + POLL_JITTER * (2 * random_unit - 1))
