"""Who may write a row through the fenced write (pure: unsaved rows)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from catalogs.models import Catalog
from workers.reconcile.fence import holds_lease

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def test_a_pass_with_a_lease_writes_only_while_the_row_names_its_token() -> None:
    leased = Catalog(lease_owner="mine", lease_expires_at=NOW + timedelta(minutes=1))
    assert holds_lease(leased, "mine", NOW)
    assert not holds_lease(leased, "theirs", NOW)
    assert not holds_lease(Catalog(lease_owner="", lease_expires_at=None), "mine", NOW)


def test_a_pass_without_a_lease_writes_only_while_no_lease_is_held() -> None:
    assert holds_lease(Catalog(lease_owner="", lease_expires_at=None), None, NOW)
    assert holds_lease(Catalog(lease_owner="gone", lease_expires_at=NOW - timedelta(seconds=1)), None, NOW)
    assert not holds_lease(Catalog(lease_owner="busy", lease_expires_at=NOW + timedelta(seconds=1)), None, NOW)
