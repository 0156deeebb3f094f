"""Events on gateway releases: each verification failure is recorded once, as a Warning (and so notified)."""

from __future__ import annotations

from controlplane.events import EventType
from gateways.choices import ReleaseReason
from gateways.models import GatewayRelease, ReleaseEvent

__all__ = ["verification_failed"]


def verification_failed(release: GatewayRelease) -> ReleaseEvent:
    """Record the failure the release's message names (called once, by the worker that wrote the verdict)."""
    return ReleaseEvent.objects.create(
        release=release, type=EventType.WARNING, reason=ReleaseReason.VERIFICATION_FAILED, message=release.message,
    )
