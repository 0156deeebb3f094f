"""Run the whole suite as two pytest processes at once: the live stack's tier beside every other tier.

The stack tier (``-m stack``: e2e, browser, contract) spends most of its time waiting on its own processes, so it
overlaps well with the in-process tiers on two cores. Each process has its own test database and Redis databases,
so neither truncates or flushes what the other uses. The other tiers print as they run; the stack tier's output
is kept in ``build/test-stack.log`` and printed when both have finished. Each prints its 25 slowest tests.

Started by ``make test``; extra arguments go to both pytest processes. Ctrl-C or SIGTERM interrupts both, so
each tears its fixtures (devclusters, registries, the stack) down.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import FrameType
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
STACK_LOG = ROOT / "build" / "test-stack.log"
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/controlplane"
# Redis databases of the stack tier's own pytest process (the other tiers use 15 and 13, its stack 14).
STACK_TIER_REDIS = {"CELERY_BROKER_URL": "redis://127.0.0.1:6379/8", "CACHE_URL": "redis://127.0.0.1:6379/9"}
INTERRUPT_REPEAT_SECONDS = 5
INTERRUPT_GRACE_SECONDS = 60
PYTEST = [sys.executable, "-m", "pytest", "--durations=25"]


def stack_tier_env() -> dict[str, str]:
    """This environment with a database name of the stack tier's own (pytest-django prefixes it with test_)."""
    url = urlsplit(os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL))
    database = f"{url.path.lstrip('/')}_stack"
    return {**os.environ, **STACK_TIER_REDIS, "DATABASE_URL": urlunsplit(url._replace(path=f"/{database}"))}


def interrupt(processes: list[subprocess.Popen[bytes]]) -> None:
    """Send SIGINT to each process group until it exits: pytest stops and runs its fixtures' teardown.

    It is sent again every few seconds, because a library that a test is inside (a browser driver, say) may
    swallow one KeyboardInterrupt; a group still there after a minute is killed.
    """
    deadline = time.monotonic() + INTERRUPT_GRACE_SECONDS
    while any(process.poll() is None for process in processes):
        for process in processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGINT if time.monotonic() < deadline else signal.SIGKILL)
        for process in processes:
            try:
                process.wait(timeout=INTERRUPT_REPEAT_SECONDS)
            except subprocess.TimeoutExpired:
                break


def main(extra: list[str]) -> int:
    STACK_LOG.parent.mkdir(exist_ok=True)
    started = time.monotonic()
    stopping = threading.Event()

    def stop(signum: int, frame: FrameType | None) -> None:
        stopping.set()

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    with STACK_LOG.open("wb") as log:
        stack = subprocess.Popen([*PYTEST, "-m", "stack", *extra], cwd=ROOT, env=stack_tier_env(), stdout=log,
                                 stderr=subprocess.STDOUT, start_new_session=True)
        rest = subprocess.Popen([*PYTEST, "-m", "not stack", *extra], cwd=ROOT, start_new_session=True)
        rest_seconds = None
        while stack.poll() is None or rest.poll() is None:
            if rest_seconds is None and rest.poll() is not None:
                rest_seconds = time.monotonic() - started
            if stopping.wait(timeout=1):
                interrupt([rest, stack])
    print(f"\n===== the stack tier (-m stack), run beside the others =====\n{STACK_LOG.read_text(errors='replace')}")
    print(f"tiers: not stack exited {rest.returncode} after {rest_seconds or time.monotonic() - started:.0f}s; "
          f"stack exited {stack.returncode} after {time.monotonic() - started:.0f}s")
    # pytest's 5 (no tests collected) is a failure too: a tier that finds nothing has lost its tests.
    return rest.returncode or stack.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
