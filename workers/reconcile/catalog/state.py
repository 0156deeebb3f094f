"""Classify a catalog into one closed set of states (pure; the resolved digest is observed by the caller)."""

from __future__ import annotations

import enum

from workers.reconcile.catalog.request import CatalogRequest

__all__ = ["CatalogState", "determine_state"]


class CatalogState(enum.Enum):
    USER_UNAVAILABLE = "UserUnavailable"  # availability_mode=Unavailable: drop content
    UNRESOLVED = "Unresolved"  # the ref has not been resolved in this pass yet
    OUT_OF_SYNC = "OutOfSync"  # other content than is served, or content missing: unpack
    UNVERIFIED = "Unverified"  # serving what the ref names, not verified with the policy keys: verify it
    BLOCKED = "Blocked"  # the ref still names the digest a terminal failure blocked on: pulling it cannot help
    IN_SYNC = "InSync"  # serving what the ref names


def determine_state(request: CatalogRequest, resolved_digest: str | None) -> CatalogState:
    if not request.available:
        return CatalogState.USER_UNAVAILABLE
    if resolved_digest is None:
        return CatalogState.UNRESOLVED
    serving = request.content_present and request.served_digest == resolved_digest
    if serving and not request.needs_verification:
        return CatalogState.IN_SYNC
    if request.blocked_digest and request.blocked_digest == resolved_digest:
        return CatalogState.BLOCKED
    return CatalogState.UNVERIFIED if serving else CatalogState.OUT_OF_SYNC
