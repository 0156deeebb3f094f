"""HTTP details of content responses (pure): validators, ranges and gzip negotiation."""

from __future__ import annotations

import re
from datetime import datetime

from django.utils.http import http_date, parse_http_date_safe

__all__ = ["GZIP_SUFFIX", "accepts_gzip", "etag_for", "if_range_allows", "last_modified_header", "parse_range"]

GZIP_SUFFIX = "-gzip"
_RANGE = re.compile(r"^bytes=(\d*)-(\d*)$")
_CODING = re.compile(r"^\s*([^;\s]+)\s*(?:;\s*q\s*=\s*([0-9.]+))?\s*$")


def etag_for(digest: str, *, gzipped: bool = False) -> str:
    """A strong ETag per representation: the content digest, suffixed for the gzip encoding."""
    return f'"{digest}{GZIP_SUFFIX if gzipped else ""}"'


def last_modified_header(when: datetime) -> str:
    return http_date(int(when.timestamp()))


def accepts_gzip(header: str) -> bool:
    """Whether ``Accept-Encoding`` admits gzip (explicitly, or by ``*``) with a non-zero quality."""
    qualities: dict[str, float] = {}
    for item in header.split(","):
        match = _CODING.match(item)
        if match:
            try:
                qualities[match.group(1).lower()] = float(match.group(2) or "1")
            except ValueError:
                continue
    quality = qualities.get("gzip", qualities.get("x-gzip", qualities.get("*", 0.0)))
    return quality > 0


def parse_range(header: str, size: int) -> tuple[int, int] | bool | None:
    """One ``bytes=`` range as (start, length); None to ignore the header; False if unsatisfiable.

    Multiple ranges and malformed headers are ignored (RFC 9110 lets a server send the whole body).
    """
    match = _RANGE.match(header.strip())
    if not match or (not match.group(1) and not match.group(2)):
        return None
    first, last = match.group(1), match.group(2)
    if not first:
        suffix = int(last)
        if suffix == 0:
            return False
        start = max(size - suffix, 0)
        return (start, size - start) if size else False
    start = int(first)
    end = min(int(last), size - 1) if last else size - 1
    if last and int(last) < start:
        return None
    if start >= size:
        return False
    return start, end - start + 1


def if_range_allows(header: str, etag: str, last_modified: datetime) -> bool:
    """``If-Range`` holds when it names the current strong ETag or exactly the Last-Modified date."""
    header = header.strip()
    if not header:
        return True
    if header.startswith(('"', "W/")):
        return header == etag
    date = parse_http_date_safe(header)
    return date is not None and date == int(last_modified.timestamp())
