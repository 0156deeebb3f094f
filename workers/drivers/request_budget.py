"""A budget of concurrent API requests per cluster, so that no API server is flooded.

`KubeClient` takes a slot of its server's budget around every request (watch streams excepted: they
stay open for minutes and carry events, not load). `RedisRequestBudget` counts slots in Redis, so the
bound holds across every worker and watcher process that shares it. A slot is a member of a sorted set
scored by its expiry, so a process killed mid-request frees its slot after `hold_seconds`.
"""

from __future__ import annotations

import hashlib
import logging
import random
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from typing import Protocol

import redis

from workers.drivers import errors

__all__ = ["UNBOUNDED", "RedisRequestBudget", "RequestBudget", "wait_for_slot"]

log = logging.getLogger(__name__)

# The first pause between tries for a full budget, and the longest (each pause doubles, with jitter).
FIRST_PAUSE_SECONDS = 0.01
LONGEST_PAUSE_SECONDS = 0.2

# KEYS[1]: the server's slots; ARGV: token, limit, hold (ms). 1 when the slot was taken, else 0.
_TAKE = """
local now = redis.call('TIME')
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now_ms)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], now_ms + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
return 1
"""


class RequestBudget(Protocol):
    """Hands out slots of one API server's budget; a slot is held for the length of one request."""

    def slot(self, server: str) -> AbstractContextManager[None]: ...


class _Unbounded:
    def slot(self, server: str) -> AbstractContextManager[None]:
        return nullcontext()


UNBOUNDED: RequestBudget = _Unbounded()


def wait_for_slot(
    take: Callable[[], bool],
    wait_seconds: float,
    *,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    jitter: Callable[[], float] = random.random,
) -> bool:
    """Try `take` until it succeeds (True) or `wait_seconds` have passed (False), pausing between tries
    from FIRST_PAUSE_SECONDS, doubling up to LONGEST_PAUSE_SECONDS, each pause jittered by up to half."""
    deadline = clock() + wait_seconds
    pause = FIRST_PAUSE_SECONDS
    while not take():
        left = deadline - clock()
        if left <= 0:
            return False
        sleep(min(left, pause * (1 + jitter() / 2)))
        pause = min(pause * 2, LONGEST_PAUSE_SECONDS)
    return True


@dataclass(frozen=True)
class RedisRequestBudget:
    """At most `limit` requests in flight to one API server, across every process sharing `client`.

    A request waits up to `wait_seconds` for a slot, then fails with `ClusterBusy`. Should Redis fail,
    the request goes ahead unbudgeted (logged): a cache outage must not stop reconciliation.
    """

    client: redis.Redis
    limit: int
    hold_seconds: float = 60.0
    wait_seconds: float = 30.0
    prefix: str = "kube-requests"

    @contextmanager
    def slot(self, server: str) -> Iterator[None]:
        key = f"{self.prefix}:{hashlib.sha256(server.encode()).hexdigest()[:24]}"
        token = uuid.uuid4().hex
        try:
            taken = wait_for_slot(lambda: self._take(key, token), self.wait_seconds)
        except redis.RedisError as exc:
            log.warning("request budget unavailable (%s); requesting %s unbudgeted", exc, server)
            yield
            return
        if not taken:
            raise errors.ClusterBusy(
                f"cluster busy: {self.limit} API requests to {server} in flight for {self.wait_seconds:g} s"
            )
        try:
            yield
        finally:
            try:
                self.client.zrem(key, token)
            except redis.RedisError as exc:
                log.warning("could not give back a request slot of %s (%s); it lapses on its own", server, exc)

    def _take(self, key: str, token: str) -> bool:
        hold_ms = int(self.hold_seconds * 1000)
        return bool(self.client.eval(_TAKE, 1, key, token, self.limit, hold_ms))
