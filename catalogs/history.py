"""Each catalog's bounded history of content switches (``CatalogRevision``), newest first.

The worker records a revision in the transaction that switches the catalog's content, and trims the
history to ``CATALOG_HISTORY_LIMIT`` there; a revision deleted by the trim (or with its catalog)
releases its content to the GC (``catalogs.cleanup``), which keeps every entry a revision names.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet

from catalogs.models import Catalog, CatalogRevision

__all__ = ["find", "record", "referenced_digests", "revisions"]


def revisions(catalog: Catalog | str) -> QuerySet[CatalogRevision]:
    """The catalog's revisions, newest first."""
    return CatalogRevision.objects.filter(catalog=catalog).order_by("-id")


def record(
    catalog_id: str,
    *,
    content_digest: str,
    resolved_ref: str,
    switched_at: datetime,
    summary: str,
    changes: dict[str, Any],
) -> None:
    """Add a revision (unless the newest already says the same) and trim the history; in a transaction."""
    newest = revisions(catalog_id).first()
    if newest is not None and (newest.content_digest, newest.resolved_ref) == (content_digest, resolved_ref):
        return
    CatalogRevision.objects.create(
        catalog_id=catalog_id,
        content_digest=content_digest,
        resolved_ref=resolved_ref,
        switched_at=switched_at,
        summary=summary[:512],
        changes=changes,
    )
    limit = settings.CATALOG_HISTORY_LIMIT
    fallen = list(revisions(catalog_id).values_list("pk", flat=True)[limit:])
    if fallen:
        CatalogRevision.objects.filter(pk__in=fallen).delete()  # each releases its content (post_delete)


def find(catalog: Catalog, digest: str) -> CatalogRevision | None:
    """The newest revision whose content digest, or the image digest it came from, is ``digest``."""
    return revisions(catalog).filter(Q(content_digest=digest) | Q(resolved_ref__endswith=f"@{digest}")).first()


def referenced_digests() -> set[str]:
    """Every content digest a catalog serves or its history names."""
    serving = Catalog.objects.exclude(content_digest="").values_list("content_digest", flat=True)
    remembered = CatalogRevision.objects.values_list("content_digest", flat=True)
    return set(serving) | set(remembered)
