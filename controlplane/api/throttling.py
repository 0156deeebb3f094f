"""Rate limits per authenticated user (so per token) and per client address for anonymous calls.

Each client has two counters, this fixed window's and the last one's, and a sliding-window estimate
(``controlplane.api.rate_window``) decides. A request is counted as both are read, in one round trip, and a
refused one is taken back (a second): the cost does not grow with the rate, and increments from every
replica add up atomically.

Rates are read from settings on every request, so operators (and tests) can change them without
reloading classes. Counters live in the shared cache's Redis, so every API replica enforces one budget.
When it cannot be reached, each process counts on its own (a budget per process rather than none, and
never a 500); a log line marks the switch each way, and ``/readyz`` reports the cache.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from typing import Any, Protocol

import redis
from django.conf import settings
from redis.exceptions import RedisError
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

from controlplane.api.rate_window import RateVerdict, judge, window_of
from controlplane.ttl_cache import TtlCache

__all__ = ["AnonymousRateThrottle", "TokenRateThrottle"]

log = logging.getLogger(__name__)
KEY_PREFIX = "controlplane:rate:"
_degraded: list[str] = []  # the reason, while counters are per process


class Counters(Protocol):
    def count(self, keys: tuple[str, str], ttl: int) -> tuple[int, int]:
        """Add one to the current window's count (``keys[1]``, which expires ``ttl`` seconds on); the two
        windows' counts before that (0 for a window not seen)."""

    def uncount(self, key: str, ttl: int) -> None:
        """Take one back from ``key`` (a request that was refused), as ``count`` added it."""


class RedisCounters:
    def __init__(self, url: str) -> None:
        self.client = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)

    def count(self, keys: tuple[str, str], ttl: int) -> tuple[int, int]:
        pipe = self.client.pipeline(transaction=False)
        pipe.get(keys[0])
        pipe.incr(keys[1])
        pipe.expire(keys[1], ttl)
        previous, current, _ = pipe.execute()
        return int(previous or 0), current - 1

    def uncount(self, key: str, ttl: int) -> None:
        self.client.decr(key)


class LocalCounters:
    """This process's counters, for when Redis is unreachable; the oldest keys go past ``max_keys``."""

    def __init__(self, max_keys: int = 10_000) -> None:
        self._counts: TtlCache[int] = TtlCache(max_entries=max_keys)
        self._lock = threading.Lock()  # an increment reads, then writes

    def count(self, keys: tuple[str, str], ttl: int) -> tuple[int, int]:
        with self._lock:
            now = time.monotonic()
            previous, current = self._counts.get(keys[0], now) or 0, self._counts.get(keys[1], now) or 0
            self._counts.put(keys[1], current + 1, now + ttl)
        return previous, current

    def uncount(self, key: str, ttl: int) -> None:
        with self._lock:
            now = time.monotonic()
            current = self._counts.get(key, now)
            if current:
                self._counts.put(key, current - 1, now + ttl)


_local = LocalCounters()


@functools.lru_cache(maxsize=4)
def _shared(url: str) -> RedisCounters:
    return RedisCounters(url)


def _switch(reason: str | None) -> None:
    if reason and not _degraded:
        _degraded.append(reason)
        log.warning("rate limits are per process: the shared cache is unreachable (%s)", reason)
    elif reason is None and _degraded:
        _degraded.clear()
        log.info("rate limits are shared again: the cache is reachable")


def _decide(counters: Counters, keys: tuple[str, str], limit: int, duration: int, now: float) -> RateVerdict:
    previous, current = counters.count(keys, 2 * duration)
    verdict = judge(limit, duration, previous, current, now)
    if not verdict.allowed:
        counters.uncount(keys[1], 2 * duration)
    return verdict


class _WindowThrottle(SimpleRateThrottle):
    def allow_request(self, request: Any, view: Any) -> bool:
        self.verdict = RateVerdict(True)
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        now = self.timer()
        window = window_of(now, self.duration)
        keys = (f"{KEY_PREFIX}{key}:{window - 1}", f"{KEY_PREFIX}{key}:{window}")
        try:
            self.verdict = _decide(
                _shared(settings.CACHES["default"]["LOCATION"]), keys, self.num_requests, self.duration, now
            )
        except (RedisError, OSError) as exc:
            _switch(f"{type(exc).__name__}: {exc}"[:200])
            self.verdict = _decide(_local, keys, self.num_requests, self.duration, now)
        else:
            _switch(None)
        return self.verdict.allowed

    def wait(self) -> float | None:
        return self.verdict.retry_after or None


class TokenRateThrottle(_WindowThrottle, UserRateThrottle):
    def get_rate(self) -> str:
        return settings.API_THROTTLE_USER_RATE


class AnonymousRateThrottle(_WindowThrottle, AnonRateThrottle):
    def get_rate(self) -> str:
        return settings.API_THROTTLE_ANON_RATE
