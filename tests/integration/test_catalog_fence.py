"""A catalog pass saves through the fenced write: once its lease is taken over, it cannot write (PostgreSQL)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.utils import timezone

from catalogs.models import Catalog, CatalogEvent
from tests.fixtures.registry import Registry, fbc_layer
from workers.reconcile.catalog import loop
from workers.reconcile.catalog.outcome import CatalogOutcome
from workers.reconcile.catalog.run import LEASE
from workers.reconcile.lease import held_lease

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_a_pass_whose_lease_was_taken_over_cannot_write(
    registry: Registry, repository: str, catalog_store: Path
) -> None:
    registry.push_image(repository, "v1", [fbc_layer("v1")])
    catalog = Catalog.objects.create(name="fenced", image_ref=f"{registry.host}/{repository}:v1")
    pk = str(catalog.pk)

    with held_lease(Catalog, pk, LEASE) as lease:
        assert lease is not None
        Catalog.objects.filter(pk=pk).update(lease_owner="another-worker")  # a second worker took the catalog
        assert loop.reconcile(pk, now=timezone.now(), lease_token=lease.token) == CatalogOutcome(superseded=True)

    catalog.refresh_from_db()
    assert (catalog.content_digest, catalog.conditions, catalog.observed_generation) == ("", [], 0)
    assert not CatalogEvent.objects.filter(catalog=catalog).exists()
    assert catalog.lease_owner == "another-worker"  # and the old holder did not release it

    Catalog.objects.filter(pk=pk).update(lease_owner="", lease_expires_at=None)
    with held_lease(Catalog, pk, LEASE) as lease:
        assert lease is not None
        assert loop.reconcile(pk, now=timezone.now(), lease_token=lease.token) == CatalogOutcome()
    catalog.refresh_from_db()
    assert catalog.content_digest and catalog.observed_generation == catalog.generation
