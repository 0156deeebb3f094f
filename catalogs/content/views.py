"""Catalog content over HTTP: ``/catalogs/<name>/api/v1/all`` and ``/metas``. Plain Django, no DRF.

Every answer comes from the database row (which digest a catalog serves) and the shared store
(the bytes), so all replicas answer alike. A catalog that exists and is Available but has no
content yet gets 503 with Retry-After: transient state is never reported as "not found".
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import FileResponse, HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.views.decorators.csrf import csrf_exempt

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
from controlplane.validators import validate_dns1123_subdomain

__all__ = ["all_view", "metas_view"]

CONTENT_TYPE = "application/jsonl"
ALLOWED_METHODS = ("GET", "HEAD")
READ_CHUNK = 256 * 1024


@dataclass(frozen=True)
class Content:
    digest: str
    last_modified: datetime
    directory: Path


def _error(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"error": {"status": status, "code": code, "message": message}}, status=status)


def _find_content(request: HttpRequest, name: str) -> Content | HttpResponse:
    """The content to serve, or the error response that explains why there is none."""
    if request.method not in ALLOWED_METHODS:
        response = _error(405, "method_not_allowed", f"Method {request.method} is not allowed.")
        response["Allow"] = ", ".join(ALLOWED_METHODS)
        return response
    try:
        validate_dns1123_subdomain(name)
    except ValidationError as exc:
        return _error(400, "invalid_name", exc.messages[0])
    row = (
        Catalog.objects.filter(name=name)
        .values_list("availability_mode", "content_digest", "last_unpacked")
        .first()
    )
    if row is None or row[0] == AvailabilityMode.UNAVAILABLE:
        return _error(404, "not_found", f"No catalog named {name!r} is being served.")
    _, digest, last_unpacked = row
    if not digest or last_unpacked is None or not store.has(digest):
        response = _error(503, "unavailable", f"Catalog {name!r} has no content yet; try again shortly.")
        response["Retry-After"] = str(settings.CATALOG_RETRY_AFTER_SECONDS)
        return response
    return Content(digest=digest, last_modified=last_unpacked, directory=store.content_dir(digest))


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


@csrf_exempt
def all_view(request: HttpRequest, name: str) -> HttpResponse:
    """The whole catalog: sendfile-able from the store, or a byte range, or the stored gzip copy."""
    found = _find_content(request, name)
    if isinstance(found, HttpResponse):
        return found
    plain = found.directory / store.ALL_FILE
    size = plain.stat().st_size
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
    if wanted:
        start, length = wanted
        response = StreamingHttpResponse(_read_spans(plain, [(start, length)]), status=206, content_type=CONTENT_TYPE)
        response["Content-Range"] = f"bytes {start}-{start + length - 1}/{size}"
        response["Content-Length"] = str(length)
    elif gzipped:
        packed = found.directory / store.ALL_GZ_FILE
        length = packed.stat().st_size
        response = FileResponse(packed.open("rb"), content_type=CONTENT_TYPE)
        response["Content-Encoding"] = "gzip"
    else:
        length = size
        response = FileResponse(plain.open("rb"), content_type=CONTENT_TYPE)
    response["Accept-Ranges"] = "bytes"
    return _body_or_head(request, _validators(response, found, gzipped=gzipped), length)


@csrf_exempt
def metas_view(request: HttpRequest, name: str) -> HttpResponse:
    """The documents matching every given filter (schema, package, name), found through the index."""
    found = _find_content(request, name)
    if isinstance(found, HttpResponse):
        return found
    unknown = sorted(set(request.GET) - set(FILTER_KEYS))
    repeated = sorted(key for key in request.GET if len(request.GET.getlist(key)) > 1)
    if unknown or repeated:
        problem = f"unknown query parameters {unknown}" if unknown else f"repeated query parameters {repeated}"
        return _error(400, "invalid_query", f"{problem}; metas accepts schema, package and name, once each.")
    spans = load_index(found.directory / store.INDEX_FILE).spans(dict(request.GET.items()))
    length = sum(span_length for _, span_length in spans)
    gzipped = length >= settings.CATALOG_GZIP_MIN_BYTES and accepts_gzip(request.META.get("HTTP_ACCEPT_ENCODING", ""))
    decided = _precondition(request, found, gzipped=gzipped)
    if decided is not None:
        return decided
    body = _read_spans(found.directory / store.ALL_FILE, spans)
    if gzipped:
        response = StreamingHttpResponse(_gzip(body), content_type=CONTENT_TYPE)
        response["Content-Encoding"] = "gzip"
        return _body_or_head(request, _validators(response, found, gzipped=True), None)
    response = StreamingHttpResponse(body, content_type=CONTENT_TYPE)
    response["Content-Length"] = str(length)
    return _body_or_head(request, _validators(response, found, gzipped=False), length)


def _read_spans(path: Path, spans: list[tuple[int, int]]) -> Iterator[bytes]:
    """Yield the bytes of each (offset, length) span, reading at most READ_CHUNK at a time."""
    with path.open("rb") as handle:
        for offset, length in spans:
            handle.seek(offset)
            while length > 0:
                chunk = handle.read(min(length, READ_CHUNK))
                if not chunk:
                    return
                length -= len(chunk)
                yield chunk


def _gzip(chunks: Iterator[bytes]) -> Iterator[bytes]:
    compressor = zlib.compressobj(6, zlib.DEFLATED, 31)
    for chunk in chunks:
        packed = compressor.compress(chunk)
        if packed:
            yield packed
    yield compressor.flush()
