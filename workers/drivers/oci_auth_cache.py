"""Registry authorizations remembered by the worker process, so a poll of an unchanged tag is one request.

Entries are keyed by repository URL and credentials. A Basic authorization is kept until the registry
refuses it. A bearer token is kept for its lifetime (``expires_in``, 60 s when absent, less a tenth);
once it has expired, the remembered challenge lets the client ask the token service for a new one
directly, instead of being refused by the registry first.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass

from workers.drivers.oci_auth import Challenge, Credentials

__all__ = ["AUTH_CACHE", "AuthCache", "Remembered", "cache_key", "token_expiry"]

DEFAULT_TOKEN_SECONDS = 60  # the token specification's default when ``expires_in`` is absent
MAX_ENTRIES = 1024

CacheKey = tuple[str, str, str]


@dataclass(frozen=True)
class Remembered:
    """How the registry asked to authenticate, the answer, and until when (monotonic; None: until refused)."""

    challenge: Challenge
    authorization: str
    expires_at: float | None

    def fresh(self, now: float) -> bool:
        return self.expires_at is None or now < self.expires_at


def cache_key(repository_url: str, credentials: Credentials | None) -> CacheKey:
    """Credentials take part only as a hash, so one catalog's token never serves another's password."""
    if credentials is None:
        return (repository_url, "", "")
    digest = hashlib.sha256(f"{credentials.username}\0{credentials.password}".encode()).hexdigest()
    return (repository_url, credentials.username, digest)


def token_expiry(expires_in: object, now: float) -> float:
    """When to stop using a token fetched at ``now``: a tenth before the end of the lifetime it was given."""
    seconds = expires_in if isinstance(expires_in, int) and not isinstance(expires_in, bool) else None
    lifetime = DEFAULT_TOKEN_SECONDS if seconds is None or seconds < 0 else seconds
    return now + lifetime * 0.9


class AuthCache:
    """A small thread-safe LRU of ``Remembered`` entries."""

    def __init__(self, max_entries: int = MAX_ENTRIES) -> None:
        self._entries: OrderedDict[CacheKey, Remembered] = OrderedDict()
        self._max = max_entries
        self._lock = threading.Lock()

    def get(self, key: CacheKey) -> Remembered | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
            return entry

    def put(self, key: CacheKey, entry: Remembered) -> None:
        with self._lock:
            self._entries[key] = entry
            self._entries.move_to_end(key)
            while len(self._entries) > self._max:
                self._entries.popitem(last=False)


AUTH_CACHE = AuthCache()
