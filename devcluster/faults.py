"""Fault injection rules, a bounded log of recent requests and the requests in flight, all managed via /_devcluster/."""

from __future__ import annotations

import itertools
import random
import re
import threading
import time
from collections import Counter, deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class FaultRule:
    """Answer requests whose path matches `path_regex` (and `method`, if set) with `status` after `latency_ms`."""

    path_regex: str
    method: str | None = None
    status: int | None = 500
    rate: float = 1.0
    latency_ms: int = 0
    count: int | None = None
    id: int = 0
    hits: int = 0
    _pattern: re.Pattern[str] | None = field(default=None, repr=False, compare=False)

    def matches(self, method: str, path: str) -> bool:
        if self._pattern is None:
            self._pattern = re.compile(self.path_regex)
        if self.method and self.method.upper() != method.upper():
            return False
        return bool(self._pattern.search(path))

    def describe(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("_pattern")
        return data


def rule_from_json(data: Any) -> FaultRule:
    """Validate a rule posted by a client; raises ValueError with a readable message."""
    if not isinstance(data, dict) or not isinstance(data.get("path_regex"), str):
        raise ValueError("a fault rule needs a string path_regex")
    known = {"path_regex", "method", "status", "rate", "latency_ms", "count"}
    unknown = set(data) - known
    if unknown:
        raise ValueError(f"unknown fault rule fields: {sorted(unknown)}")
    rule = FaultRule(**data)
    re.compile(rule.path_regex)
    if rule.status is not None and not 100 <= int(rule.status) <= 599:
        raise ValueError("status must be an HTTP status code")
    if not 0.0 <= float(rule.rate) <= 1.0:
        raise ValueError("rate must be between 0 and 1")
    return rule


@dataclass(frozen=True)
class FaultDecision:
    latency_seconds: float
    status: int | None


class FaultInjector:
    """Thread-safe rule set; `decide` picks the first matching rule that fires."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rules: list[FaultRule] = []
        self._ids = itertools.count(1)

    def add(self, rule: FaultRule) -> FaultRule:
        with self._lock:
            rule.id = next(self._ids)
            self._rules.append(rule)
            return rule

    def clear(self) -> None:
        with self._lock:
            self._rules.clear()

    def remove(self, rule_id: int) -> bool:
        with self._lock:
            before = len(self._rules)
            self._rules = [rule for rule in self._rules if rule.id != rule_id]
            return len(self._rules) != before

    def describe(self) -> list[dict[str, Any]]:
        with self._lock:
            return [rule.describe() for rule in self._rules]

    def decide(self, method: str, path: str) -> FaultDecision | None:
        with self._lock:
            for rule in self._rules:
                if rule.count is not None and rule.hits >= rule.count:
                    continue
                if rule.matches(method, path) and random.random() < rule.rate:
                    rule.hits += 1
                    return FaultDecision(rule.latency_ms / 1000.0, rule.status)
        return None


class InFlight:
    """API requests being served now, and the most served at once since the last reset, per user agent."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._current: Counter[str] = Counter()
        self._peak: Counter[str] = Counter()

    @contextmanager
    def serving(self, user_agent: str) -> Iterator[None]:
        with self._lock:
            self._current[user_agent] += 1
            self._peak[user_agent] = max(self._peak[user_agent], self._current[user_agent])
        try:
            yield
        finally:
            with self._lock:
                self._current[user_agent] -= 1

    def describe(self) -> dict[str, dict[str, int]]:
        with self._lock:
            return {"current": {ua: n for ua, n in self._current.items() if n}, "peak": dict(self._peak)}

    def reset(self) -> None:
        """Start the peaks again from what is in flight now."""
        with self._lock:
            self._peak = Counter({ua: n for ua, n in self._current.items() if n})


class RequestLog:
    """The most recent requests (method, path, query, content type, accept, status, user agent, and the injected
    latency each was held for)."""

    def __init__(self, size: int = 2000) -> None:
        self._lock = threading.Lock()
        self._entries: deque[dict[str, Any]] = deque(maxlen=size)

    def record(
        self,
        method: str,
        path: str,
        query: str,
        content_type: str,
        accept: str,
        status: int,
        user_agent: str = "",
        delayed_ms: int = 0,
    ) -> None:
        entry = {
            "time": time.time(),
            "method": method,
            "path": path,
            "query": query,
            "content_type": content_type,
            "accept": accept,
            "status": status,
            "user_agent": user_agent,
            "delayed_ms": delayed_ms,
        }
        with self._lock:
            self._entries.append(entry)

    def entries(self) -> list[dict[str, Any]]:
        with self._lock:
            return list(self._entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
