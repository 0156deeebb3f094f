"""The HTTP ``Retry-After`` header, as seconds from now: delay-seconds or an HTTP-date (pure)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

__all__ = ["parse_retry_after"]

_DELAY_SECONDS = re.compile(r"[0-9]+")


def parse_retry_after(value: str | None, now: datetime) -> float | None:
    """Seconds to wait (0 for a date in the past), or None when the header is absent or unreadable.

    Callers cap the result: a registry may ask for any delay."""
    text = (value or "").strip()
    if not text:
        return None
    if _DELAY_SECONDS.fullmatch(text):
        return float(text)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:  # "-0000" parses naive; HTTP dates are always GMT
        when = when.replace(tzinfo=UTC)
    return max((when - now).total_seconds(), 0.0)
