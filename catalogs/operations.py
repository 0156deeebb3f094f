"""Domain operations on catalogs, shared by every caller (today the console) so they cannot diverge.

A resync locks the selected rows in name order, forgets the digest each was blocked on (so the next
pass pulls it again, even though the tag has not moved), records an audit entry per catalog, and
enqueues a reconcile once the transaction commits.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import QuerySet

from catalogs.models import Catalog
from controlplane.audit import record
from controlplane.dispatch import enqueue_on_commit
from controlplane.tasks import TaskName

__all__ = ["resync"]


def resync(catalogs: QuerySet[Catalog], user: Any, source: str) -> list[Catalog]:
    """Reconcile now, pulling a blocked digest again; the failure counter is left alone."""
    with transaction.atomic():
        pks = list(catalogs.values_list("pk", flat=True))
        locked = list(Catalog.objects.select_for_update().filter(pk__in=pks).order_by("name", "pk"))
        Catalog.objects.filter(pk__in=[c.pk for c in locked]).update(blocked_digest="")
        for catalog in locked:
            catalog.blocked_digest = ""
            record(user, "resync", catalog, source=source)
            enqueue_on_commit(TaskName.RECONCILE_CATALOG, catalog.pk)
    return locked
