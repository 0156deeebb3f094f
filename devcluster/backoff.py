"""Per-object retry backoff for controllers whose creates are refused (pure; the caller passes the time)."""

from __future__ import annotations

__all__ = ["Backoff"]


class Backoff:
    """After a failure an object waits `first` seconds, doubling per further failure up to `cap`."""

    def __init__(self, first: float = 1.0, cap: float = 10.0) -> None:
        self._first, self._cap = first, cap
        self._delay: dict[str, float] = {}
        self._until: dict[str, float] = {}

    def remaining(self, uid: str, now: float) -> float:
        """Seconds until `uid` may try again (0: now)."""
        return max(self._until.get(uid, 0.0) - now, 0.0)

    def failed(self, uid: str, now: float) -> float:
        """Record a failure; returns the seconds to wait before the next try."""
        delay = min(self._delay[uid] * 2, self._cap) if uid in self._delay else self._first
        self._delay[uid], self._until[uid] = delay, now + delay
        return delay

    def succeeded(self, uid: str) -> None:
        self._delay.pop(uid, None)
        self._until.pop(uid, None)
