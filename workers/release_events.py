"""Events on gateway releases: each verification failure is recorded once, as a Warning (and so notified)."""

from __future__ import annotations

from cluster_vocabulary.kubernetes import EventType
from gateways.choices import ReleaseReason
from gateways.models import GatewayRelease, ReleaseEvent

__all__ = ["verification_failed"]


def verification_failed(release: GatewayRelease, message: str) -> ReleaseEvent:
    """Record a verification failure (called once per failure, by the worker that wrote it)."""
    return ReleaseEvent.objects.create(
        release=release,
        type=EventType.WARNING,
        reason=ReleaseReason.VERIFICATION_FAILED,
        message=message,
    )
