"""Which catalogs the periodic poll should reconcile now.

A Redis key per catalog, set with NX and a TTL, records "checked recently": a tag ref is checked
again once its key expires (every poll interval, with jitter); a catalog that has not settled
(spec not yet observed, or no content) is rechecked every ``UNSETTLED_RECHECK_SECONDS``. A catalog
blocked on a digest has settled: only a new digest behind its tag (or a spec change) can unblock it.
"""

from __future__ import annotations

import random

import redis
from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from catalogs.choices import AvailabilityMode
from catalogs.models import Catalog
from controlplane.imageref import InvalidImageRefError, parse_image_ref
from workers.reconcile.catalog.failures import poll_seconds

__all__ = ["POLL_KEY", "due_catalog_ids", "is_settled", "recheck_seconds"]

POLL_KEY = "catalogs:polled:{pk}"
UNSETTLED_RECHECK_SECONDS = 60


def is_settled(
    *, generation: int, observed_generation: int, content_digest: str, blocked_digest: str, available: bool
) -> bool:
    """The spec is observed and the catalog serves content, is blocked on a digest, or wants none."""
    return observed_generation >= generation and (bool(content_digest) or bool(blocked_digest) or not available)


def recheck_seconds(
    *, image_ref: str, poll_interval_minutes: int | None, settled: bool, random_unit: float
) -> float | None:
    """How long until the next poll of this catalog; None when polling would never change anything."""
    if not settled:
        return UNSETTLED_RECHECK_SECONDS
    try:
        is_tag = parse_image_ref(image_ref).digest is None
    except InvalidImageRefError:
        return None
    if is_tag and poll_interval_minutes:
        return poll_seconds(poll_interval_minutes, random_unit)
    return None


def due_catalog_ids() -> list[str]:
    """Ids of the catalogs to reconcile now; marks each as polled."""
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    due = []
    try:
        in_backoff = Q(next_attempt_at__gt=timezone.now())  # their retry is already queued for the due time
        rows = Catalog.objects.exclude(in_backoff).values_list(
            "pk",
            "image_ref",
            "poll_interval_minutes",
            "generation",
            "observed_generation",
            "content_digest",
            "availability_mode",
            "blocked_digest",
        )
        for pk, image_ref, interval, generation, observed, digest, mode, blocked in rows:
            seconds = recheck_seconds(
                image_ref=image_ref,
                poll_interval_minutes=interval,
                random_unit=random.random(),
                settled=is_settled(
                    generation=generation,
                    observed_generation=observed,
                    content_digest=digest,
                    blocked_digest=blocked,
                    available=mode == AvailabilityMode.AVAILABLE,
                ),
            )
            if seconds is not None and client.set(POLL_KEY.format(pk=pk), 1, nx=True, ex=max(int(seconds), 1)):
                due.append(str(pk))
    finally:
        client.close()
    return due
