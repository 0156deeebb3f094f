"""Typed exceptions shared by the Kubernetes and Helm drivers.

Every message is meant to be safe to log or store: build them with `sanitise`,
which strips known secret strings and bounds the length.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

REDACTED = "[REDACTED]"
MAX_MESSAGE_CHARS = 2000
# Shorter strings are too likely to be ordinary words to blank out of a message.
MIN_SECRET_CHARS = 4


class DriverError(Exception):
    """Base class; `status` is the HTTP status code when one was seen."""

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


class ClusterUnreachable(DriverError):
    """The API server could not be reached (connection, DNS, TLS, kubeconfig)."""


class ClusterBusy(DriverError):
    """The cluster's budget of concurrent API requests stayed full for as long as a request may wait."""


class NotFound(DriverError):
    """The object does not exist (HTTP 404)."""


class Conflict(DriverError):
    """The object exists or changed underneath us (HTTP 409)."""


class Unauthorized(DriverError):
    """Credentials rejected or insufficient (HTTP 401/403)."""


class InvalidRequest(DriverError):
    """The request was malformed or rejected by validation (HTTP 400/422)."""


class ServerError(DriverError):
    """The API server failed or throttled the request (HTTP 5xx, 429, other)."""


class ReleaseNotFound(NotFound):
    """No Helm release (or no deployed revision) by that name."""


class OperationInProgress(Conflict):
    """Another Helm operation (install/upgrade/rollback) holds the release."""


class ChartError(DriverError):
    """The chart could not be fetched, loaded, validated or rendered."""


class HelmTimeout(DriverError):
    """Helm, or what it waited for, ran out of time."""


class HelmError(DriverError):
    """Any other Helm failure."""


# A 500 answers one request; these say the server cannot serve now.
OUTAGE_STATUSES = frozenset({429, 502, 503, 504})


def is_outage(exc: DriverError) -> bool:
    """The cluster did not answer, or answered that it cannot serve now: not the gateway's fault."""
    return isinstance(exc, ClusterUnreachable) or (isinstance(exc, ServerError) and exc.status in OUTAGE_STATUSES)


def secret_strings(values: object) -> set[str]:
    """Every string leaf of a values tree long enough to be worth redacting."""
    found: set[str] = set()
    stack = [values]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if len(item) >= MIN_SECRET_CHARS:
                found.add(item)
        elif isinstance(item, Mapping):
            stack.extend(item.values())
        elif isinstance(item, Iterable) and not isinstance(item, bytes):
            stack.extend(item)
    return found


def sanitise(message: str, secrets: Iterable[str] = ()) -> str:
    """Replace each secret occurring in `message` and cap its length."""
    for secret in sorted(set(secrets), key=len, reverse=True):
        if secret:
            message = message.replace(secret, REDACTED)
    message = message.strip()
    if len(message) > MAX_MESSAGE_CHARS:
        message = message[:MAX_MESSAGE_CHARS] + "..."
    return message
