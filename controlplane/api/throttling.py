"""Rate limits per authenticated user (so per token) and per client address for anonymous calls.

Rates are read from settings on every request, so operators (and tests) can change them without
reloading classes. Counters live in the shared cache, so every API replica enforces one budget.
When the cache cannot be reached, each process counts on its own (a budget per process rather
than none, and never a 500); a log line marks the switch each way, and ``/readyz`` reports the cache.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.cache import cache as shared_cache
from django.core.cache.backends.locmem import LocMemCache
from redis.exceptions import RedisError
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

__all__ = ["AnonymousRateThrottle", "TokenRateThrottle"]

log = logging.getLogger(__name__)
_local_cache = LocMemCache("controlplane-throttle-fallback", {"OPTIONS": {"MAX_ENTRIES": 10_000}})
_degraded: list[str] = []  # the reason, while counters are per process


def _switch(reason: str | None) -> None:
    if reason and not _degraded:
        _degraded.append(reason)
        log.warning("rate limits are per process: the shared cache is unreachable (%s)", reason)
    elif reason is None and _degraded:
        _degraded.clear()
        log.info("rate limits are shared again: the cache is reachable")


class _FallbackThrottle(SimpleRateThrottle):
    def allow_request(self, request: Any, view: Any) -> bool:
        self.cache, self.key = shared_cache, None
        try:
            allowed = super().allow_request(request, view)
        except (RedisError, OSError) as exc:
            _switch(f"{type(exc).__name__}: {exc}"[:200])
            self.cache = _local_cache
            return super().allow_request(request, view)
        if self.key is not None:  # the shared cache answered (None: this throttle does not apply)
            _switch(None)
        return allowed


class TokenRateThrottle(_FallbackThrottle, UserRateThrottle):
    def get_rate(self) -> str:
        return settings.API_THROTTLE_USER_RATE


class AnonymousRateThrottle(_FallbackThrottle, AnonRateThrottle):
    def get_rate(self) -> str:
        return settings.API_THROTTLE_ANON_RATE
