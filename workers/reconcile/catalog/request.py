"""An immutable snapshot of one catalog, as one reconcile pass sees it (pure)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime

from controlplane.conditions import Condition
from controlplane.signing_keys import keys_fingerprint
from workers.reconcile.catalog.outcome import CatalogOutcome, CatalogStatus
from workers.reconcile.outcome import apply_conditions

__all__ = ["CatalogRequest"]


@dataclass(frozen=True)
class CatalogRequest:
    pk: str
    name: str
    generation: int
    image_ref: str
    available: bool
    pull_username: str
    pull_password: str = dataclasses.field(repr=False)
    ca: str
    conditions: tuple[Condition, ...]
    observed_generation: int
    resolved_ref: str
    base_url: str
    last_unpacked: datetime | None
    content_digest: str
    content_present: bool
    failure_count: int = 0
    signature_keys: str = ""
    verified_keys: str = ""  # the fingerprint of the keys the served content was verified with
    blocked_digest: str = ""

    @property
    def keys_fingerprint(self) -> str:
        return keys_fingerprint(self.signature_keys)

    @property
    def needs_verification(self) -> bool:
        """A signature policy is set, and the content served was not verified with its keys."""
        return bool(self.signature_keys) and self.verified_keys != self.keys_fingerprint

    @property
    def served_digest(self) -> str:
        """The manifest digest the current content came from ('' when nothing is served)."""
        return self.resolved_ref.rpartition("@")[2] if self.content_present else ""

    def restores(self, content_digest: str) -> bool:
        """Whether writing ``content_digest`` restores the entry served, lost from the store since."""
        return bool(self.content_digest) and not self.content_present and self.content_digest == content_digest

    @property
    def secrets(self) -> tuple[str, ...]:
        return (self.pull_password,) if self.pull_password else ()

    def served_status(self) -> CatalogStatus:
        """The status columns of the content served now, with no failure counted."""
        return CatalogStatus(
            resolved_ref=self.resolved_ref,
            base_url=self.base_url,
            last_unpacked=self.last_unpacked,
            content_digest=self.content_digest,
            verified_keys=self.verified_keys,
        )

    def after(self, outcome: CatalogOutcome, now: datetime) -> CatalogRequest:
        """The snapshot once a step's ``outcome`` has been saved at ``now`` (columns it does not hold are left out)."""
        known = {f.name for f in dataclasses.fields(self)}
        columns = outcome.status.columns() if outcome.status is not None else {}
        conditions = apply_conditions(self.conditions, outcome.conditions, generation=self.generation, now=now)
        return dataclasses.replace(
            self,
            conditions=tuple(conditions),
            observed_generation=self.generation,
            content_present=outcome.content_present,
            **{name: value for name, value in columns.items() if name in known},
        )
