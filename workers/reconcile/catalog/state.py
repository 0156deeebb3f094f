"""Classify a catalog into one closed set of states (pure; the resolved digest is observed by the caller)."""

from __future__ import annotations

import enum

from workers.reconcile.catalog.request import CatalogRequest

__all__ = ["State", "determine_state"]


class State(enum.Enum):
    USER_UNAVAILABLE = "UserUnavailable"  # availability_mode=Unavailable: drop content
    UNRESOLVED = "Unresolved"  # the ref has not been resolved in this pass yet
    OUT_OF_SYNC = "OutOfSync"  # other content than is served, or content missing: unpack
    UNVERIFIED = "Unverified"  # serving what the ref names, not verified with the policy keys: verify it
    BLOCKED = "Blocked"  # the ref still names the digest a terminal failure blocked on: pulling it cannot help
    IN_SYNC = "InSync"  # serving what the ref names


def determine_state(request: CatalogRequest, resolved_digest: str | None) -> State:
    if not request.available:
        return State.USER_UNAVAILABLE
    if resolved_digest is None:
        return State.UNRESOLVED
    serving = request.content_present and request.served_digest == resolved_digest
    if serving and not request.needs_verification:
        return State.IN_SYNC
    if request.blocked_digest and request.blocked_digest == resolved_digest:
        return State.BLOCKED
    return State.UNVERIFIED if serving else State.OUT_OF_SYNC
