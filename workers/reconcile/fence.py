"""The one conditional write every reconciled kind saves through: the row, locked, and whether the pass may write it.

A pass may write while the row still names its lease token (a pass that took no lease: while no lease is held,
so a running pass always has the last word) and still has the generation the pass read. The caller writes inside
the block, in the same transaction as the lock.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Generic, TypeVar

from django.db import transaction

from controlplane.models import SpecResource

__all__ = ["Locked", "holds_lease", "locked_row"]

Row = TypeVar("Row", bound=SpecResource)


def holds_lease(row: SpecResource, lease_token: str | None, now: datetime) -> bool:
    """Whether a pass with ``lease_token`` (None: it took no lease) may still write ``row``."""
    if lease_token:
        return row.lease_owner == lease_token
    return row.lease_expires_at is None or row.lease_expires_at <= now


@dataclass(frozen=True)
class Locked(Generic[Row]):
    """A locked row; ``leased``: the pass still holds it; ``current``: it has the generation the pass read."""

    row: Row
    leased: bool
    current: bool

    @property
    def writable(self) -> bool:
        return self.leased and self.current


@contextmanager
def locked_row(
    model: type[Row], pk: object, *, generation: int, lease_token: str | None, now: datetime
) -> Iterator[Locked[Row] | None]:
    """Lock ``model`` row ``pk`` for the rest of the transaction; None when it is gone."""
    with transaction.atomic():
        row = model.objects.select_for_update().filter(pk=pk).first()
        if row is None:
            yield None
            return
        yield Locked(row, leased=holds_lease(row, lease_token, now), current=row.generation == generation)
