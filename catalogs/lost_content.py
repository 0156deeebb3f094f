"""Served content gone from the store: noticed by a reader or the sweep, marked, and queued to be unpacked again.

The database names the digest each catalog serves. When that entry is missing, truncated or corrupt, the
catalog's Serving turns False (``ContentLost``) with a Warning event, any corrupt remnant is removed, and a
reconcile is queued: the worker unpacks the same digest again, pinned or not, and Serving turns True.

Reports are gated per catalog and digest by the shared cache (an atomic add that expires after
``CATALOG_CONTENT_LOST_REQUEUE_SECONDS``): a storm of readers queues one reconcile per interval, and a loss
that outlives the interval (a failed or skipped pass) is queued again by the next reader or sweep.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from catalogs import store
from catalogs.choices import AvailabilityMode, ConditionType, Reason
from catalogs.cleanup import lock_content
from catalogs.integrity import entry_intact
from catalogs.models import Catalog, CatalogEvent
from cluster_vocabulary.kubernetes import ConditionStatus, EventType
from controlplane.conditions import Condition, find_condition, set_condition
from controlplane.dispatch import enqueue_on_commit
from controlplane.tasks import TaskName

__all__ = ["LOST_KEY", "claim", "lost_conditions", "report", "sweep_served"]

log = logging.getLogger(__name__)
LOST_KEY = "catalogs:content-lost:{pk}:{digest}"


def lost_conditions(
    conditions: list[Condition], *, digest: str, generation: int, now: datetime
) -> list[Condition] | None:
    """The conditions with Serving False (``ContentLost``); None when Serving says so already (pure)."""
    serving = find_condition(conditions, ConditionType.SERVING)
    if serving is not None and (serving["status"], serving["reason"]) == (ConditionStatus.FALSE, Reason.CONTENT_LOST):
        return None
    return set_condition(
        conditions,
        type_=ConditionType.SERVING,
        status=ConditionStatus.FALSE,
        reason=Reason.CONTENT_LOST,
        message=f"Content {digest} is missing or corrupt in the store; it is being unpacked again",
        generation=generation,
        now=now,
    )


def claim(catalog_id: str, digest: str, *, if_cache_down: bool) -> bool:
    """Whether this caller is the first to report the loss in this interval (the cache's atomic add).

    When the cache cannot be reached, ``if_cache_down`` decides: readers give up (the sweep will come),
    the sweep, which runs once a period anyway, goes on."""
    import redis  # the cache's client library, loaded where the cache is first used (readers seldom get here)

    key = LOST_KEY.format(pk=catalog_id, digest=digest)
    try:
        return bool(cache.add(key, 1, timeout=settings.CATALOG_CONTENT_LOST_REQUEUE_SECONDS))
    except redis.RedisError as exc:
        log.warning("catalog %s: cannot reach the cache to report lost content (%s)", catalog_id, exc)
        return if_cache_down


def report(catalog_id: str, digest: str, why: str, *, if_cache_down: bool = False) -> bool:
    """Mark the catalog not serving and queue its reconcile, if it still serves ``digest`` and that entry is
    not intact; at most once per interval. True when reported now (a reconcile is queued on commit).

    Both checks are made under the catalog's row lock and the digest's lock, so a reader that raced a content
    switch, or a restore that finished meanwhile, reports nothing."""
    if not claim(catalog_id, digest, if_cache_down=if_cache_down):
        return False
    with transaction.atomic():
        catalog = (
            Catalog.objects.select_for_update()
            .filter(pk=catalog_id, content_digest=digest, availability_mode=AvailabilityMode.AVAILABLE)
            .first()
        )
        if catalog is None:
            return False
        lock_content(digest)
        content = store.get()
        if entry_intact(content, digest):
            return False
        if content.stat(digest) is not None:
            content.remove(digest)  # a corrupt remnant: readers stop meeting it, and the worker writes it whole
        conditions = lost_conditions(
            catalog.conditions, digest=digest, generation=catalog.observed_generation, now=timezone.now()
        )
        if conditions is not None:
            Catalog.objects.filter(pk=catalog.pk).update(conditions=conditions)
            CatalogEvent.objects.create(
                catalog=catalog,
                type=EventType.WARNING,
                reason=Reason.CONTENT_LOST,
                message=f"{why}; unpacking {digest} again"[:2048],
            )
        enqueue_on_commit(TaskName.RECONCILE_CATALOG, catalog.pk)
    log.warning("catalog %s: %s; queued a reconcile to unpack %s again", catalog.name, why, digest)
    return True


def sweep_served() -> int:
    """Check the entry of every catalog that serves content and report each one not intact; how many were.

    For content nobody reads: run with the GC sweep, on its period and at worker start."""
    content = store.get()
    served = Catalog.objects.filter(availability_mode=AvailabilityMode.AVAILABLE).exclude(content_digest="")
    reported = 0
    for pk, digest in served.values_list("pk", "content_digest"):
        try:
            if not entry_intact(content, digest):
                reported += report(
                    str(pk), digest, "The sweep found the served content missing or corrupt", if_cache_down=True
                )
        except store.StoreError:
            log.exception("the served-content sweep cannot read the store; the next sweep will retry")
            break
        except Exception:
            log.exception("the served-content sweep could not check catalog %s", pk)
    return reported
