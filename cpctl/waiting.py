"""Polling with a deadline, and the ``--for`` conditions of ``cpctl gateways wait``."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from cpctl.exits import TIMEOUT, USAGE, CliError

__all__ = ["Wanted", "parse_wanted", "poll"]

T = TypeVar("T")


@dataclass(frozen=True)
class Wanted:
    """``phase=<Phase>`` (``phase`` set) or ``delete`` (``phase`` None)."""

    phase: str | None

    def __str__(self) -> str:
        return f"phase={self.phase}" if self.phase else "delete"


def parse_wanted(text: str, phases: Sequence[str]) -> Wanted:
    if text == "delete":
        return Wanted(None)
    key, _, value = text.partition("=")
    if key != "phase" or value not in phases:
        raise CliError(f"--for takes delete or phase=<{'|'.join(phases)}>, not {text!r}", USAGE)
    return Wanted(value)


def poll(
    check: Callable[[], T | None],
    what: str,
    timeout: float,
    interval: float = 1.0,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> T:
    """Call ``check`` until it returns something other than None; exit 4 after ``timeout`` seconds."""
    deadline = clock() + timeout
    while True:
        result = check()
        if result is not None:
            return result
        left = deadline - clock()
        if left <= 0:
            raise CliError(f"timed out after {timeout:g}s waiting for {what}", TIMEOUT)
        sleep(min(interval, left))
