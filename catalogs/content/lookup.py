"""Which stored entry a catalog serves, and the answers for when there is none to serve (shared by the views).

A catalog that exists and is Available but has no content yet is a 503 with Retry-After, never a
transient 404; so is an entry collected since the DB read, a store that cannot be reached, and
a corrupt index (which is discarded, and the catalog's reconcile enqueued to unpack it afresh).
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
from catalogs.content.index import CatalogIndex, load_index
from catalogs.models import Catalog
from controlplane.dispatch import send
from controlplane.http_errors import json_error
from controlplane.validators import validate_dns1123_subdomain

__all__ = ["Content", "discard_corrupt", "entry_index", "find_content", "store_errors_unavailable", "unavailable"]

log = logging.getLogger(__name__)
RECONCILE_CATALOG = "workers.tasks.reconcile_catalog"


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
    if entry is None or not all(part in entry.sizes for part in store.ENTRY_FILES):
        return unavailable(name)  # collected or switched since the DB read, or never whole
    return Content(str(pk), name, digest, last_unpacked, content, entry.sizes)


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


def discard_corrupt(content: Content, exc: Exception) -> HttpResponse:
    """Discard an entry whose index cannot be read and have a worker unpack the catalog again."""
    log.error("catalog %s: index of %s is corrupt (%s); discarding it for a re-unpack", content.name,
              content.digest, exc)
    content.store.remove(content.digest)
    send(RECONCILE_CATALOG, content.catalog_id)
    return unavailable(content.name, "has corrupt content that is being unpacked again")


def entry_index(content: Content) -> CatalogIndex | HttpResponse:
    """The entry's parsed index, or the 503 for an entry that is gone or whose index is corrupt."""
    try:
        index = load_index(content.store, content.digest)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
        return discard_corrupt(content, exc)
    return unavailable(content.name) if index is None else index
