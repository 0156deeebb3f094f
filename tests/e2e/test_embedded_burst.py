"""`make run` on its embedded defaults (SQLite) takes a burst of gateways: every one reaches Running through its
own passes, and the worker logs no ERROR (a "database is locked" task failure would be one).

The stack is `scripts/run_local.py` itself, in a directory of its own, with a Redis server of its own.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from tests.fixtures.services import dedicated_redis
from tests.paths import PROJECT_ROOT
from tests.ports import free_port
from tests.waiting import wait_until

pytestmark = pytest.mark.e2e

# 20 in the suite (the burst the issue measured 12 "database is locked" failures with; it keeps the suite under its
# time budget); E2E_BURST_GATEWAYS=50 runs the 50 (about 2.5 minutes).
BURST = int(os.environ.get("E2E_BURST_GATEWAYS", "20"))
# Settings a test session may carry that `make run` must not see: it is run on its own defaults.
NOT_INHERITED = (
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "CACHE_URL",
    "GATEWAY_CHART",
    "GATEWAY_CHART_VERSION",
    "CATALOG_STORE",
    "CATALOG_STORE_DIR",
    "HELM_HOME",
    "PROMETHEUS_MULTIPROC_DIR",
    "SECRET_KEY",
    "FIELD_ENCRYPTION_KEY",
)


@dataclass
class LocalRun:
    api: requests.Session
    url: str
    run_dir: Path

    def log(self, name: str) -> str:
        return (self.run_dir / f"{name}.log").read_text(errors="replace")


@pytest.fixture
def local_run(tmp_path: Path) -> Iterator[LocalRun]:
    run_dir, port = tmp_path / "run", free_port()
    run_dir.mkdir()
    with dedicated_redis(tmp_path) as server:
        env = {key: value for key, value in os.environ.items() if key not in NOT_INHERITED}
        env.update(RUN_DIR=str(run_dir), API_PORT=str(port), CELERY_BROKER_URL=server.url(0), CACHE_URL=server.url(1))
        out = (tmp_path / "run_local.out").open("wb")
        process = subprocess.Popen(
            [sys.executable, "scripts/run_local.py"],
            cwd=PROJECT_ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            printed = wait_until(lambda: _printed(tmp_path / "run_local.out", process), "make run to start", 120)
            token = re.search(r"API token: (\w+)", printed)
            assert token, printed
            api = requests.Session()
            api.headers["Authorization"] = f"Token {token[1]}"
            yield LocalRun(api=api, url=f"http://127.0.0.1:{port}", run_dir=run_dir)
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=60)


def _printed(path: Path, process: subprocess.Popen) -> str | None:
    text = path.read_text(errors="replace")
    if process.poll() is not None:
        pytest.fail(f"make run exited ({process.returncode}):\n{text[-3000:]}")
    return text if "The control plane is up." in text else None


def test_a_burst_of_gateways_all_run_without_an_error_in_the_worker_log(local_run: LocalRun) -> None:
    assert (local_run.run_dir / "db.sqlite3").exists(), "make run's embedded default is SQLite"

    def create(index: int) -> int:
        body = {
            "name": f"burst-{index:03d}",
            "cluster": "local",
            "image": "ghcr.io/nvidia/openshell/gateway:1.0.0",
            "supervisor_image": "ghcr.io/nvidia/openshell/supervisor:1.0.0",
        }
        return local_run.api.post(f"{local_run.url}/api/v1/gateways/", json=body, timeout=60).status_code

    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=10) as pool:
        assert list(pool.map(create, range(BURST))) == [201] * BURST

    def all_running() -> bool:
        listed = local_run.api.get(f"{local_run.url}/api/v1/gateways/", params={"limit": BURST}, timeout=30).json()
        return [g["status"]["phase"] for g in listed["results"]] == ["Running"] * BURST

    wait_until(all_running, f"{BURST} gateways to reach Running", timeout=150, interval=1)
    print(f"{BURST} gateways Running {time.monotonic() - started:.1f}s after the burst began")
    errors = [line for line in local_run.log("worker").splitlines() if "ERROR" in line]
    assert not errors, "\n".join(errors[:20])
