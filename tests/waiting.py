"""The one way a test waits: on a condition, asked again at an interval until it holds or the time is up."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from typing import TypeVar

import requests

T = TypeVar("T")


class WaitTimeout(AssertionError):
    """The condition did not hold in time: a test failure, and a plain error to the benchmarks that wait too."""


def wait_until(
    condition: Callable[[], T | None], what: str | Callable[[], str], timeout: float = 60.0, interval: float = 0.2
) -> T:
    """``condition()``'s first truthy result, or WaitTimeout naming ``what`` (a text, or a function that tells
    more, such as a log's tail) once ``timeout`` seconds have passed.

    ``condition`` may raise to end the wait at once (see ``running``): its error is the caller's."""
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() >= deadline:
            raise WaitTimeout(f"timed out after {timeout}s waiting for {what if isinstance(what, str) else what()}")
        time.sleep(interval)


def running(process: subprocess.Popen, name: str, log: Callable[[], str] = lambda: "") -> None:
    """Raise at once if ``process`` has exited: a wait on what a dead process would do can only time out."""
    if process.poll() is not None:
        raise AssertionError(f"{name} exited with code {process.returncode}:\n{log()[-3000:]}")


def http_status(url: str, session: requests.Session | None = None, timeout: float = 2) -> int | None:
    """The status a GET of ``url`` gets, or None while nothing answers there (within ``timeout`` seconds)."""
    try:
        return (session or requests).get(url, timeout=timeout).status_code
    except requests.RequestException:
        return None


def wait_serving(
    process: subprocess.Popen,
    url: str,
    name: str,
    log: Callable[[], str] = lambda: "",
    timeout: float = 60.0,
    expect: int | None = None,
    session: requests.Session | None = None,
) -> None:
    """Wait until the server ``process`` answers a GET of ``url`` (with status ``expect``, when given); fail at
    once, with its log's tail, if it exits first."""

    def answers() -> bool:
        running(process, name, log)
        status = http_status(url, session)
        return status is not None and expect in (None, status)

    wait_until(answers, lambda: f"{name} to answer {url}:\n{log()[-3000:]}", timeout, interval=0.05)


def repeat_for(seconds: float, action: Callable[[], object], interval: float) -> int:
    """Call ``action`` every ``interval`` seconds for ``seconds``: an invariant checked over a span of time, or a
    request repeated through one. How many calls there were."""
    end, calls = time.monotonic() + seconds, 0
    while time.monotonic() < end:
        action()
        calls += 1
        time.sleep(interval)
    return calls
