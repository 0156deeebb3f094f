"""The I/O one catalog pass uses, as a protocol: the loop and its actions take it, so fakes can stand in (no Django)."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from workers.reconcile.catalog.outcome import CatalogOutcome, Switch
from workers.reconcile.catalog.request import CatalogRequest

__all__ = ["CatalogIo", "ContentVanished"]


class ContentVanished(Exception):
    """The entry to switch to was removed from the store before the switch."""


class CatalogIo(Protocol):
    def load(self, pk: str) -> CatalogRequest | None:
        """The catalog's snapshot; None when it is gone."""

    def resolve(self, request: CatalogRequest) -> str:
        """The manifest digest the ref names now."""

    def verify(self, request: CatalogRequest, digest: str) -> None:
        """Check ``digest``'s signature with the policy keys; raises ``SignatureInvalid``."""

    def unpack(self, request: CatalogRequest, digest: str) -> str:
        """Verify (under a policy), pull and unpack ``digest`` into the store; the content digest written."""

    def describe_switch(self, previous: str | None, current: str) -> Switch:
        """What switching from content ``previous`` (None: nothing served) to ``current`` changes."""

    def base_url(self, request: CatalogRequest) -> str:
        """Where the catalog's content is served."""

    def save(self, request: CatalogRequest, outcome: CatalogOutcome, now: datetime) -> bool:
        """Write ``outcome`` through the fenced write, its conditions set at ``now`` (the pass's clock); False when
        the pass was fenced out or the spec moved on."""
