"""Catalog content over HTTP: ``/catalogs/<name>/api/v1/all`` and ``/metas``. Plain Django, no DRF.

Every answer comes from the database row (which digest a catalog serves) and the shared store
(the bytes), so all replicas answer alike. A catalog that exists and is Available but has no
content yet gets 503 with Retry-After: transient state is never reported as "not found".

The views use only the ``ContentStore`` interface, so either store serves alike. An entry that is
gone when its bytes are opened (a content switch collected it since the DB read) is a 503, never
a 500, and so is a store that cannot be reached. A corrupt index is a 503 too: the entry is
discarded and the catalog's reconcile enqueued, so a worker unpacks it afresh.
"""

from __future__ import annotations

import io
import logging
import zlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import wraps

from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import FileResponse, HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils.cache import get_conditional_response, patch_vary_headers

from catalogs import store
from catalogs.choices import AvailabilityMode
from catalogs.content.index import FILTER_KEYS, load_index
from catalogs.content.negotiation import (
    accepts_gzip,
    etag_for,
    if_range_allows,
    last_modified_header,
    parse_range,
)
from catalogs.models import Catalog
from controlplane.dispatch import send
from controlplane.http_errors import allow_methods, json_error
from controlplane.validators import validate_dns1123_subdomain

__all__ = ["all_view", "metas_view"]

log = logging.getLogger(__name__)
RECONCILE_CATALOG = "workers.tasks.reconcile_catalog"

CONTENT_TYPE = "application/jsonl"
ALLOWED_METHODS = ("GET", "HEAD")
# Read size when a body is streamed by Django (S3), not handed to the server's sendfile (a local file).
STREAM_CHUNK = 256 * 1024


@dataclass(frozen=True)
class Content:
    catalog_id: str
    name: str
    digest: str
    last_modified: datetime
    store: store.ContentStore
    sizes: Mapping[str, int]


def _unavailable(name: str, why: str = "has no content yet") -> JsonResponse:
    response = json_error(503, "unavailable", f"Catalog {name!r} {why}; try again shortly.")
    response["Retry-After"] = str(settings.CATALOG_RETRY_AFTER_SECONDS)
    return response


def _find_content(name: str) -> Content | HttpResponse:
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
        return _unavailable(name)
    content = store.get()
    entry = content.stat(digest)
    if entry is None or not all(part in entry.sizes for part in store.ENTRY_FILES):
        return _unavailable(name)  # collected or switched since the DB read, or never whole
    return Content(str(pk), name, digest, last_unpacked, content, entry.sizes)


def _store_errors_unavailable(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A store that cannot be reached is a 503 with Retry-After, like content that is not there yet."""

    @wraps(view)
    def wrapper(request: HttpRequest, name: str) -> HttpResponse:
        try:
            return view(request, name)
        except store.StoreError as exc:
            log.warning("catalog %s: content store error: %s", name, exc)
            return _unavailable(name, "cannot be read from the content store now")

    return wrapper


def _corrupt(content: Content, exc: Exception) -> HttpResponse:
    """Discard an entry whose index cannot be read and have a worker unpack the catalog again."""
    log.error("catalog %s: index of %s is corrupt (%s); discarding it for a re-unpack", content.name,
              content.digest, exc)
    content.store.remove(content.digest)
    send(RECONCILE_CATALOG, content.catalog_id)
    return _unavailable(content.name, "has corrupt content that is being unpacked again")


def _validators(response: HttpResponse, content: Content, *, gzipped: bool) -> HttpResponse:
    response["ETag"] = etag_for(content.digest, gzipped=gzipped)
    response["Last-Modified"] = last_modified_header(content.last_modified)
    patch_vary_headers(response, ("Accept-Encoding",))
    return response


def _precondition(request: HttpRequest, content: Content, *, gzipped: bool) -> HttpResponse | None:
    """304 or 412 when a conditional header decides the answer; None to go on."""
    etag = etag_for(content.digest, gzipped=gzipped)
    _treat_encodings_alike(request, etag, etag_for(content.digest, gzipped=not gzipped))
    decided = get_conditional_response(
        request, etag=etag, last_modified=int(content.last_modified.timestamp()), response=None
    )
    return _validators(decided, content, gzipped=gzipped) if decided is not None else None


def _body_or_head(request: HttpRequest, response: HttpResponse, length: int | None) -> HttpResponse:
    """For HEAD, the same headers (with the GET body's length, when known) and no body."""
    if request.method != "HEAD":
        return response
    head = HttpResponse(status=response.status_code, content_type=CONTENT_TYPE)
    for key, value in response.items():
        head[key] = value
    response.close()
    if length is not None:
        head["Content-Length"] = str(length)
    return head


def _treat_encodings_alike(request: HttpRequest, etag: str, alternate: str) -> None:
    """Both encodings carry the same content, so a validator naming either one names this one."""
    for header in ("HTTP_IF_NONE_MATCH", "HTTP_IF_MATCH"):
        if alternate in request.META.get(header, ""):
            request.META[header] = request.META[header].replace(alternate, etag)


@allow_methods(*ALLOWED_METHODS)
@_store_errors_unavailable
def all_view(request: HttpRequest, name: str) -> HttpResponse:
    """The whole catalog (streamed from the store), or a byte range, or the stored gzip copy."""
    found = _find_content(name)
    if isinstance(found, HttpResponse):
        return found
    return _all_response(request, found, found.sizes[store.ALL_FILE], found.sizes[store.ALL_GZ_FILE])


def _all_response(request: HttpRequest, found: Content, size: int, packed_size: int) -> HttpResponse:
    wanted = parse_range(request.META.get("HTTP_RANGE", ""), size) if "HTTP_RANGE" in request.META else None
    if wanted is not None and not if_range_allows(
        request.META.get("HTTP_IF_RANGE", ""), etag_for(found.digest), found.last_modified
    ):
        wanted = None
    gzipped = wanted is None and size >= settings.CATALOG_GZIP_MIN_BYTES and accepts_gzip(
        request.META.get("HTTP_ACCEPT_ENCODING", "")
    )
    decided = _precondition(request, found, gzipped=gzipped)
    if decided is not None:
        return decided
    if wanted is False:
        response = HttpResponse(status=416, content_type=CONTENT_TYPE)
        response["Content-Range"] = f"bytes */{size}"
        return _validators(response, found, gzipped=False)
    head = request.method == "HEAD"  # answered from the entry's stat alone: its bytes are not read
    if wanted:
        start, length = wanted
        body = iter(()) if head else found.store.open_range(found.digest, store.ALL_FILE, [(start, length)])
        if body is None:
            return _unavailable(found.name)
        response = StreamingHttpResponse(body, status=206, content_type=CONTENT_TYPE)
        response["Content-Range"] = f"bytes {start}-{start + length - 1}/{size}"
    else:
        length = packed_size if gzipped else size
        stored = store.ALL_GZ_FILE if gzipped else store.ALL_FILE
        handle = io.BytesIO() if head else found.store.open(found.digest, stored)
        if handle is None:
            return _unavailable(found.name)
        response = FileResponse(handle, content_type=CONTENT_TYPE, filename=store.ALL_FILE)
        response.block_size = STREAM_CHUNK
        if gzipped:
            response["Content-Encoding"] = "gzip"
    response["Content-Length"] = str(length)
    response["Accept-Ranges"] = "bytes"
    return _body_or_head(request, _validators(response, found, gzipped=gzipped), length)


@allow_methods(*ALLOWED_METHODS)
@_store_errors_unavailable
def metas_view(request: HttpRequest, name: str) -> HttpResponse:
    """The documents matching every given filter (schema, package, name), found through the index."""
    found = _find_content(name)
    if isinstance(found, HttpResponse):
        return found
    unknown = sorted(set(request.GET) - set(FILTER_KEYS))
    repeated = sorted(key for key in request.GET if len(request.GET.getlist(key)) > 1)
    if unknown or repeated:
        problem = f"unknown query parameters {unknown}" if unknown else f"repeated query parameters {repeated}"
        return json_error(400, "invalid_query", f"{problem}; metas accepts schema, package and name, once each.")
    try:
        index = load_index(found.store, found.digest)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
        return _corrupt(found, exc)
    if index is None:
        return _unavailable(name)
    return _metas_response(request, found, index.spans(dict(request.GET.items())))


def _metas_response(request: HttpRequest, found: Content, spans: list[tuple[int, int]]) -> HttpResponse:
    length = sum(span_length for _, span_length in spans)
    gzipped = length >= settings.CATALOG_GZIP_MIN_BYTES and accepts_gzip(request.META.get("HTTP_ACCEPT_ENCODING", ""))
    decided = _precondition(request, found, gzipped=gzipped)
    if decided is not None:
        return decided
    body = iter(()) if request.method == "HEAD" else found.store.open_range(found.digest, store.ALL_FILE, spans)
    if body is None:
        return _unavailable(found.name)
    if gzipped:
        response = StreamingHttpResponse(_gzip(body), content_type=CONTENT_TYPE)
        response["Content-Encoding"] = "gzip"
        return _body_or_head(request, _validators(response, found, gzipped=True), None)
    response = StreamingHttpResponse(body, content_type=CONTENT_TYPE)
    response["Content-Length"] = str(length)
    return _body_or_head(request, _validators(response, found, gzipped=False), length)


def _gzip(chunks: Iterator[bytes]) -> Iterator[bytes]:
    compressor = zlib.compressobj(6, zlib.DEFLATED, 31)
    for chunk in chunks:
        packed = compressor.compress(chunk)
        if packed:
            yield packed
    yield compressor.flush()
