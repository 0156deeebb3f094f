"""Run the whole suite as four pytest processes at once: every tier but the live stack's, beside three shards of
the stack tier.

The tiers without the stack (pure, db and cluster) run under pytest-xdist, each worker with a test database and
Redis databases of its own (``tests/settings_env.py``). The stack tier (``-m stack``: e2e, browser, contract and the
benchmark smokes that start the stack) spends most of its time waiting on its own processes, so its shards overlap
well with the rest on two cores. Each stack shard has a database name (so a test database and its live stack's
database, ``tests/fixtures/stack_database.py``) and a ``redis-server`` of its own (on a free port, keeping nothing on
disk), so no process touches what another uses; the other tiers use the machine's Redis, as ``pytest`` alone does.
Every test module of the stack tier runs in exactly one shard: each shard names its folders or modules, and the e2e
shard ignores those the other two take.

The other tiers print as they run; each shard's output is kept in ``build/test-<shard>.log`` and printed when all
have finished. Each prints its 25 slowest tests. Started by ``make test``; extra arguments go to every process.
Ctrl-C or SIGTERM interrupts them all, so each tears its fixtures (devclusters, registries, the stack) down.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fixtures.services import Redis, dedicated_redis  # noqa: E402

BUILD = ROOT / "build"
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/controlplane"
PYTEST = [sys.executable, "-m", "pytest", "--durations=25"]
INTERRUPT_REPEAT_SECONDS = 5
INTERRUPT_GRACE_SECONDS = 60
# The stack tier's modules outside the e2e shard, so that the three shards take about as long (seen in CI's
# --durations): the browser shard takes three e2e modules, and the benchmark smokes' shard the schema fuzzing.
UI_SHARD = ("tests/browser", "tests/contract/test_openapi_generator.py", "tests/contract/test_generated_client.py")
UI_SHARD_E2E = (
    "tests/e2e/test_deploy_chart_processes.py",
    "tests/e2e/test_embedded_burst.py",
    "tests/e2e/test_cluster_outage.py",
)
SLOW_SHARD = ("tests/bench", "tests/contract/test_schemathesis.py")
# Redis databases on a stack shard's own server: the pytest process's broker and cache, the live stack's broker,
# and the deployed chart's broker and cache (tests/e2e/test_deploy_chart_processes.py).
SHARD_REDIS_DATABASES = {
    "CELERY_BROKER_URL": 15,
    "CACHE_URL": 13,
    "E2E_BROKER_URL": 14,
    "E2E_CHART_BROKER_URL": 11,
    "E2E_CHART_CACHE_URL": 12,
}


@dataclass(frozen=True)
class Shard:
    """One pytest process: what it selects, and whether it has its own test database and Redis."""

    name: str
    selection: tuple[str, ...]
    own_services: bool = True


# pytest-xdist workers for the tiers without the stack: their tests wait on helm, devclusters and subprocesses
# about half the time, so more workers than cores still overlap.
REST_WORKERS = 3
SHARDS = (
    Shard("rest", ("-m", "not stack", "-n", str(REST_WORKERS), "--dist", "loadfile"), own_services=False),
    Shard("stack-e2e", ("-m", "stack", "tests/e2e", *(f"--ignore={module}" for module in UI_SHARD_E2E))),
    Shard("stack-ui", ("-m", "stack", *UI_SHARD, *UI_SHARD_E2E)),
    Shard("stack-slow", ("-m", "stack", *SLOW_SHARD)),
)


def shard_env(shard: Shard, server: Redis) -> dict[str, str]:
    """This environment with the shard's database name (pytest-django prefixes it with test_) and its Redis."""
    url = urlsplit(os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL))
    database = f"{url.path.lstrip('/')}_{shard.name.replace('-', '_')}"
    databases = {name: server.url(db) for name, db in SHARD_REDIS_DATABASES.items()}
    return {**os.environ, **databases, "DATABASE_URL": urlunsplit(url._replace(path=f"/{database}"))}


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
    BUILD.mkdir(exist_ok=True)
    started = time.monotonic()
    stopping = threading.Event()

    def stop(signum: int, frame: FrameType | None) -> None:
        stopping.set()

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    running: dict[Shard, subprocess.Popen[bytes]] = {}
    seconds: dict[Shard, float] = {}
    with ExitStack() as resources:
        for shard in SHARDS:
            argv = [*PYTEST, *shard.selection, *extra]
            if not shard.own_services:
                running[shard] = subprocess.Popen(argv, cwd=ROOT, start_new_session=True)
                continue
            workdir = BUILD / f"redis-{shard.name}"
            workdir.mkdir(exist_ok=True)
            server = resources.enter_context(dedicated_redis(workdir))
            log = resources.enter_context((BUILD / f"test-{shard.name}.log").open("wb"))
            running[shard] = subprocess.Popen(
                argv,
                cwd=ROOT,
                env=shard_env(shard, server),
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        while len(seconds) < len(running):
            for shard, process in running.items():
                if shard not in seconds and process.poll() is not None:
                    seconds[shard] = time.monotonic() - started
            if stopping.wait(timeout=1):
                interrupt(list(running.values()))
    for shard in SHARDS:
        if shard.own_services:
            log = (BUILD / f"test-{shard.name}.log").read_text(errors="replace")
            print(f"\n===== {shard.name}: {' '.join(shard.selection)} =====\n{log}")
    for shard, process in running.items():
        print(f"{shard.name}: exited {process.returncode} after {seconds.get(shard, 0):.0f}s")
    # pytest's 5 (no tests collected) is a failure too: a shard that finds nothing has lost its tests.
    return next((process.returncode for process in running.values() if process.returncode), 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
