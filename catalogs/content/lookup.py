"""Which stored entry a catalog serves, and the answers for when there is none to serve (shared by the views).

A catalog that exists and is Available but has no content yet is a 503 with Retry-After, never a
transient 404; so is a store that cannot be reached. So is an entry that is missing, or whose index is
corrupt or does not cover the catalog's bytes: that is reported as lost (``catalogs.lost_content``), which
marks the catalog not serving and queues its reconcile, at most once per interval, to unpack it again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import wraps

from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse

from catalogs import store
from catalogs.choices import AvailabilityMode
from catalogs.content.index import UNREADABLE, CatalogIndex, load_index
from catalogs.lost_content import report
from catalogs.models import Catalog
from controlplane.http_errors import json_error
from controlplane.validators import validate_dns1123_subdomain

__all__ = ["Content", "content_lost", "entry_index", "find_content", "store_errors_unavailable", "unavailable"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Content:
    catalog_id: str
    name: str
    digest: str
    last_modified: datetime
    store: store.ContentStore
    sizes: Mapping[str, int]


def unavailable(name: str, why: str = "has no content yet") -> JsonResponse:
    response = json_error(503, "unavailable", f"Catalog {name!r} {why}; try again shortly.")
    response["Retry-After"] = str(settings.CATALOG_RETRY_AFTER_SECONDS)
    return response


def find_content(name: str) -> Content | HttpResponse:
    """The content the DB says to serve, or the error response that explains why there is none."""
    try:
        validate_dns1123_subdomain(name)
    except ValidationError as exc:
        return json_error(400, "invalid_name", exc.messages[0])
    row = (
        Catalog.objects.filter(name=name)
        .values_list("pk", "availability_mode", "content_digest", "last_unpacked")
        .first()
    )
    if row is None or row[1] == AvailabilityMode.UNAVAILABLE:
        return json_error(404, "not_found", f"No catalog named {name!r} is being served.")
    pk, _, digest, last_unpacked = row
    if not digest or last_unpacked is None:
        return unavailable(name)
    content = store.get()
    entry = content.stat(digest)
    found = Content(str(pk), name, digest, last_unpacked, content, entry.sizes if entry else {})
    if entry is None or not all(part in entry.sizes for part in store.ENTRY_FILES):
        return content_lost(found, "A reader found the served content missing")  # or switched since the DB read
    return found


def store_errors_unavailable(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A store that cannot be reached is a 503 with Retry-After, like content that is not there yet."""

    @wraps(view)
    def wrapper(request: HttpRequest, name: str) -> HttpResponse:
        try:
            return view(request, name)
        except store.StoreError as exc:
            log.warning("catalog %s: content store error: %s", name, exc)
            return unavailable(name, "cannot be read from the content store now")

    return wrapper


def content_lost(content: Content, why: str) -> HttpResponse:
    """Report the entry lost (a reader that raced a content switch reports nothing) and answer 503."""
    try:
        report(content.catalog_id, content.digest, why)
    except Exception:
        log.exception("catalog %s: could not report lost content %s", content.name, content.digest)
    return unavailable(content.name, "has content that is missing from the store and being restored")


def entry_index(content: Content) -> CatalogIndex | HttpResponse:
    """The entry's parsed index, or the 503 for an entry that is gone, or whose index is corrupt or does not
    cover the catalog's bytes (a truncated JSONL)."""
    try:
        index = load_index(content.store, content.digest)
    except UNREADABLE as exc:
        return content_lost(content, f"A reader found the index of the served content corrupt ({exc})")
    if index is None:
        return content_lost(content, "A reader found the index of the served content missing")
    if index.extent != content.sizes[store.ALL_FILE]:
        return content_lost(content, "A reader found the served content truncated: its index does not match it")
    return index
