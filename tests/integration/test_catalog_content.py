"""The content HTTP API: validators, conditional requests, ranges, gzip, metas filters and error statuses.

Every test runs on both stores (the shared directory and an S3 server)."""

from __future__ import annotations

import gzip
from datetime import UTC, datetime

import pytest
from django.test import Client

from catalogs.models import Catalog
from tests.fixtures.registry import expected_lines, stored_content

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

UNPACKED = datetime(2026, 3, 4, 5, 6, 7, 890000, tzinfo=UTC)
LAST_MODIFIED = "Wed, 04 Mar 2026 05:06:07 GMT"
ALL = "/catalogs/ops/api/v1/all"
METAS = "/catalogs/ops/api/v1/metas"
BODY = expected_lines("v1")
LINES = BODY.splitlines(keepends=True)


@pytest.fixture
def digest(content_store: str) -> str:
    content = stored_content("v1")
    Catalog.objects.create(name="ops", image_ref="r.io/ops:v1", content_digest=content, last_unpacked=UNPACKED)
    return content


def body_of(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def test_all_streams_the_file_with_validators(digest: str) -> None:
    response = Client().get(ALL)
    assert response.status_code == 200 and response.streaming
    assert response["Content-Type"] == "application/jsonl"
    assert response["ETag"] == f'"{digest}"' and response["Last-Modified"] == LAST_MODIFIED
    assert response["Content-Length"] == str(len(BODY)) and response["Accept-Ranges"] == "bytes"
    assert body_of(response) == BODY


def test_head_has_headers_and_no_body(digest: str) -> None:
    response = Client().head(ALL)
    assert response.status_code == 200 and response.content == b""
    assert response["Content-Length"] == str(len(BODY)) and response["ETag"] == f'"{digest}"'


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"If-None-Match": '"{d}"'}, 304),
        ({"If-None-Match": '"other", "{d}"'}, 304),
        ({"If-None-Match": "*"}, 304),
        ({"If-None-Match": '"{d}-gzip"'}, 304),
        ({"If-None-Match": '"other"'}, 200),
        ({"If-Modified-Since": LAST_MODIFIED}, 304),
        ({"If-Modified-Since": "Wed, 04 Mar 2026 05:06:06 GMT"}, 200),
        ({"If-Match": '"other"'}, 412),
        ({"If-Match": '"{d}"'}, 200),
        ({"If-Unmodified-Since": "Wed, 04 Mar 2026 05:06:06 GMT"}, 412),
        ({"If-Unmodified-Since": LAST_MODIFIED}, 200),
    ],
)
def test_conditional_requests(digest: str, headers: dict[str, str], status: int) -> None:
    for url in (ALL, METAS + "?package=etcd"):
        response = Client().get(url, headers={k: v.format(d=digest) for k, v in headers.items()})
        assert response.status_code == status, (url, headers)
        assert response["ETag"] == f'"{digest}"' and response["Last-Modified"] == LAST_MODIFIED
        if status != 200:
            assert body_of(response) == b""


@pytest.mark.parametrize(
    ("range_header", "start", "end"),
    [("bytes=0-9", 0, 9), ("bytes=100-", 100, len(BODY) - 1), ("bytes=-20", len(BODY) - 20, len(BODY) - 1)],
)
def test_ranges(digest: str, range_header: str, start: int, end: int) -> None:
    response = Client().get(ALL, headers={"Range": range_header, "Accept-Encoding": "gzip"})
    assert response.status_code == 206
    assert response["Content-Range"] == f"bytes {start}-{end}/{len(BODY)}"
    assert "Content-Encoding" not in response
    assert body_of(response) == BODY[start : end + 1]


def test_unsatisfiable_and_if_range(digest: str) -> None:
    response = Client().get(ALL, headers={"Range": f"bytes={len(BODY)}-"})
    assert response.status_code == 416 and response["Content-Range"] == f"bytes */{len(BODY)}"
    stale = Client().get(ALL, headers={"Range": "bytes=0-9", "If-Range": '"stale"'})
    assert stale.status_code == 200 and body_of(stale) == BODY
    fresh = Client().get(ALL, headers={"Range": "bytes=0-9", "If-Range": f'"{digest}"'})
    assert fresh.status_code == 206 and body_of(fresh) == BODY[:10]


def test_gzip_when_accepted(digest: str, settings: object) -> None:
    settings.CATALOG_GZIP_MIN_BYTES = 200  # type: ignore[attr-defined]
    for url, expected in ((ALL, BODY), (METAS + "?package=etcd", b"".join(LINES[1:4]))):
        response = Client().get(url, headers={"Accept-Encoding": "br, gzip"})
        assert response["Content-Encoding"] == "gzip" and "Accept-Encoding" in response["Vary"]
        assert response["ETag"] == f'"{digest}-gzip"'
        assert gzip.decompress(body_of(response)) == expected
    small = Client().get(METAS + "?name=etcd", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in small and body_of(small) == LINES[0]
    plain = Client().get(ALL, headers={"Accept-Encoding": "gzip;q=0"})
    assert "Content-Encoding" not in plain and body_of(plain) == BODY


@pytest.mark.parametrize(
    ("query", "numbers"),
    [
        ("", range(7)),
        ("?schema=olm.package", [0, 4]),
        ("?package=etcd", [1, 2, 3]),
        ("?schema=olm.bundle&package=prometheus", [6]),
        ("?schema=olm.bundle&package=prometheus&name=prometheusoperator.0.47.0", [6]),
        ("?schema=olm.bundle&package=etcd&name=prometheusoperator.0.47.0", []),
        ("?schema=nothing", []),
    ],
)
def test_metas_filters_and_together(digest: str, query: str, numbers: list[int]) -> None:
    response = Client().get(METAS + query)
    assert response.status_code == 200 and response["Content-Type"] == "application/jsonl"
    assert body_of(response) == b"".join(LINES[n] for n in numbers)
    assert response["Content-Length"] == str(sum(len(LINES[n]) for n in numbers))


@pytest.mark.parametrize(
    ("query", "numbers"),
    [
        ("?package=etcd&package=prometheus", [1, 2, 3]),
        ("?package=nothing&package=etcd", []),
        ("?package=", range(7)),
        ("?schema=olm.package&package=&name=", [0, 4]),
        ("?package=&package=etcd", range(7)),
        ("?name=etcd&schema=olm.package&schema=olm.bundle", [0]),
    ],
)
def test_metas_reads_parameters_as_catalogd_does(digest: str, query: str, numbers: list[int]) -> None:
    """A repeated parameter's first value wins; an empty one is no filter (catalogd's clients rely on both)."""
    response = Client().get(METAS + query)
    assert response.status_code == 200
    assert body_of(response) == b"".join(LINES[n] for n in numbers)


@pytest.mark.parametrize(
    ("method", "url", "status"),
    [
        ("post", ALL, 405),
        ("put", METAS, 405),
        ("delete", ALL, 405),
        ("patch", ALL, 405),
        ("options", ALL, 405),
        ("get", METAS + "?version=1", 400),
        ("get", METAS + "?package=&version=", 400),
        ("get", "/catalogs/Not_DNS/api/v1/all", 400),
        ("get", "/catalogs/" + "a" * 254 + "/api/v1/metas", 400),
        ("get", "/catalogs/unknown/api/v1/all", 404),
        ("get", "/catalogs/unknown/api/v1/metas", 404),
    ],
)
def test_error_statuses(digest: str, method: str, url: str, status: int) -> None:
    response = getattr(Client(), method)(url)
    assert response.status_code == status
    assert response.json()["error"]["status"] == status
    if status == 405:
        assert response["Allow"] == "GET, HEAD"


def test_available_without_content_is_503_not_404(content_store: str) -> None:
    Catalog.objects.create(name="fresh", image_ref="r.io/ops:v1")
    for url in ("/catalogs/fresh/api/v1/all", "/catalogs/fresh/api/v1/metas"):
        response = Client().get(url)
        assert response.status_code == 503 and int(response["Retry-After"]) > 0


def test_unavailable_catalog_is_404(digest: str) -> None:
    Catalog.objects.filter(name="ops").update(availability_mode="Unavailable")
    assert Client().get(ALL).status_code == 404
