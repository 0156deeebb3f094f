"""Catalog content over HTTP: ``/catalogs/<name>/api/v1/all`` and ``/metas``. Plain Django, no DRF.

Every answer comes from the database row (which digest a catalog serves) and the shared store
(the bytes), so all replicas answer alike. A catalog that exists and is Available but has no
content yet gets 503 with Retry-After: transient state is never reported as "not found".

The views use only the ``ContentStore`` interface, so either store serves alike. An entry that is
gone when its bytes are opened (a content switch collected it since the DB read) is a 503, never
a 500, and so is a store that cannot be reached. Missing or corrupt served content is a 503 too: it is
reported lost (``catalogs.lost_content``), so the catalog stops serving and a worker unpacks it afresh.
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Iterable, Iterator

from django.conf import settings
from django.http import FileResponse, HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils.cache import get_conditional_response, patch_vary_headers

from catalogs import store
from catalogs.content.index import FILTER_KEYS
from catalogs.content.lookup import Content, content_lost, entry_index, find_content, store_errors_unavailable
from catalogs.content.negotiation import (
    accepts_gzip,
    etag_for,
    if_range_allows,
    last_modified_header,
    parse_range,
)
from controlplane.http_errors import allow_methods, json_error

__all__ = ["all_view", "metas_filters", "metas_view"]

CONTENT_TYPE = "application/jsonl"
ALLOWED_METHODS = ("GET", "HEAD")
# Read size when a body is streamed by Django (S3), not handed to the server's sendfile (a local file).
STREAM_CHUNK = 256 * 1024


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
@store_errors_unavailable
def all_view(request: HttpRequest, name: str) -> HttpResponse:
    """The whole catalog (streamed from the store), or a byte range, or the stored gzip copy."""
    found = find_content(name)
    if isinstance(found, HttpResponse):
        return found
    return _all_response(request, found, found.sizes[store.ALL_FILE], found.sizes[store.ALL_GZ_FILE])


def _all_response(request: HttpRequest, found: Content, size: int, packed_size: int) -> HttpResponse:
    wanted = parse_range(request.META.get("HTTP_RANGE", ""), size) if "HTTP_RANGE" in request.META else None
    if wanted is not None and not if_range_allows(
        request.META.get("HTTP_IF_RANGE", ""), etag_for(found.digest), found.last_modified
    ):
        wanted = None
    gzipped = (
        wanted is None
        and size >= settings.CATALOG_GZIP_MIN_BYTES
        and accepts_gzip(request.META.get("HTTP_ACCEPT_ENCODING", ""))
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
            return content_lost(found, "A reader found the served content missing")
        response = StreamingHttpResponse(body, status=206, content_type=CONTENT_TYPE)
        response["Content-Range"] = f"bytes {start}-{start + length - 1}/{size}"
    else:
        length = packed_size if gzipped else size
        stored = store.ALL_GZ_FILE if gzipped else store.ALL_FILE
        handle = io.BytesIO() if head else found.store.open(found.digest, stored)
        if handle is None:
            return content_lost(found, "A reader found the served content missing")
        response = FileResponse(handle, content_type=CONTENT_TYPE, filename=store.ALL_FILE)
        response.block_size = STREAM_CHUNK
        if gzipped:
            response["Content-Encoding"] = "gzip"
    response["Content-Length"] = str(length)
    response["Accept-Ranges"] = "bytes"
    return _body_or_head(request, _validators(response, found, gzipped=gzipped), length)


@allow_methods(*ALLOWED_METHODS)
@store_errors_unavailable
def metas_view(request: HttpRequest, name: str) -> HttpResponse:
    """The documents matching every given filter (schema, package, name), found through the index."""
    found = find_content(name)
    if isinstance(found, HttpResponse):
        return found
    unknown = sorted(set(request.GET) - set(FILTER_KEYS))
    if unknown:
        return json_error(
            400, "invalid_query", f"unknown query parameters {unknown}; metas accepts schema, package and name."
        )
    index = entry_index(found)
    if isinstance(index, HttpResponse):
        return index
    return _metas_response(request, found, index.spans(metas_filters(request.GET.lists())))


def metas_filters(parameters: Iterable[tuple[str, list[str]]]) -> dict[str, str]:
    """The filters as catalogd reads them: a repeated parameter's first value; an empty one is no filter."""
    return {key: values[0] for key, values in parameters if values and values[0]}


def _metas_response(request: HttpRequest, found: Content, spans: list[tuple[int, int]]) -> HttpResponse:
    length = sum(span_length for _, span_length in spans)
    gzipped = length >= settings.CATALOG_GZIP_MIN_BYTES and accepts_gzip(request.META.get("HTTP_ACCEPT_ENCODING", ""))
    decided = _precondition(request, found, gzipped=gzipped)
    if decided is not None:
        return decided
    body = iter(()) if request.method == "HEAD" else found.store.open_range(found.digest, store.ALL_FILE, spans)
    if body is None:
        return content_lost(found, "A reader found the served content missing")
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
