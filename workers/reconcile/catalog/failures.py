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

__all__ = ["MAX_RETRY_AFTER", "RETRY", "Failure", "classify", "poll_seconds", "retry_delay"]

# Bad content: pulling the same digest again cannot help. Anything else may pass on a retry.
TERMINAL = (FBCError, LayerError, InvalidImage, TooLarge, InvalidImageRefError, SignatureInvalid)
# Terminal failures with a reason of their own (Progressing says it instead of Blocked).
REASONS: dict[type[Exception], str] = {SignatureInvalid: Reason.SIGNATURE_INVALID}
# Terminal failures that do not block their digest: a signature can be pushed after its image, so each poll
# checks again (before any layer is pulled). Every other terminal failure is final for its digest.
RECHECKED_ON_POLL = frozenset({Reason.SIGNATURE_INVALID})
MAX_MESSAGE_CHARS = 1024
POLL_JITTER = 0.1
# Catalogs never stall on retryable failures (a registry comes back); terminal ones end Blocked at once.
RETRY = RetryPolicy(base=timedelta(seconds=10), cap=timedelta(minutes=10), max_failures=None, jitter=0.2)
# A registry's Retry-After is honoured up to this; a longer ask is taken as this (polls must not stop for days).
MAX_RETRY_AFTER = timedelta(hours=1)


@dataclass(frozen=True)
class Failure:
    """``reason`` is the Progressing reason; empty means the default (Blocked when terminal, else Retrying).
    ``retry_after`` (seconds) is how long the registry asked us to wait, when it said so."""

    terminal: bool
    message: str
    reason: str = ""
    retry_after: float | None = None

    @property
    def blocks_digest(self) -> bool:
        """Whether the digest that failed is not to be pulled again until the ref or the spec moves."""
        return self.terminal and self.reason not in RECHECKED_ON_POLL


def classify(exc: BaseException, secrets: Iterable[str]) -> Failure:
    """Terminal (Blocked) or retryable (Retrying), with a message safe to store and show."""
    if isinstance(exc, (*TERMINAL, DriverError)):
        message = str(exc)
    else:
        message = f"unexpected {type(exc).__name__} while reconciling; see the worker log"
    reason = next((reason for kind, reason in REASONS.items() if isinstance(exc, kind)), "")
    return Failure(
        terminal=isinstance(exc, TERMINAL),
        message=sanitise(message, secrets)[:MAX_MESSAGE_CHARS],
        reason=reason,
        retry_after=getattr(exc, "retry_after", None) if isinstance(exc, DriverError) else None,
    )


def retry_delay(failure: Failure, failures: int, random_unit: float) -> timedelta | None:
    """The wait before the next attempt (None when terminal): the backoff, but never less than the
    registry's Retry-After (capped at ``MAX_RETRY_AFTER``)."""
    if failure.terminal:
        return None
    backoff = RETRY.delay(failures, random_unit)
    if failure.retry_after is None:
        return backoff
    return max(backoff, timedelta(seconds=min(failure.retry_after, MAX_RETRY_AFTER.total_seconds())))


def poll_seconds(interval_minutes: int, random_unit: float) -> float:
    """The next poll of a tag ref: the interval, spread by +/- POLL_JITTER so catalogs do not align."""
    return interval_minutes * 60 * (1 + POLL_JITTER * (2 * random_unit - 1))
