"""Every benchmark in bench/ runs at its smoke size, so a broken benchmark fails CI instead of rotting.

Each script is run as a user runs it (`python bench/<name>.py --smoke`). The test checks that it finishes, exits 0
(a script exits non-zero when what it measures went wrong, such as a pass in the fleet's steady state) and prints
a ratio (`12.3x`) against its in-run baseline. It never judges a time: timing belongs to the benchmarks' full sizes.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from _pytest.mark import ParameterSet

from tests.paths import PROJECT_ROOT

pytestmark = pytest.mark.bench

BENCH = PROJECT_ROOT / "bench"
SCRIPTS = sorted(path for path in BENCH.glob("*.py") if 'if __name__ == "__main__":' in path.read_text())
# A script that runs the API or Celery processes starts the live stack: its smoke belongs to the stack tier.
STACK_PROCESS = re.compile(r'"-m",\s*"(gunicorn|celery)"')


def smoke_params() -> list[ParameterSet]:
    """Each script, marked ``stack`` when it starts the stack's processes (the others keep their folder's tier)."""
    return [
        pytest.param(path, id=path.stem, marks=[pytest.mark.stack] if STACK_PROCESS.search(path.read_text()) else [])
        for path in SCRIPTS
    ]


RATIO = re.compile(r"\d+(\.\d+)?x\b|\bx\d+(\.\d+)?\b")  # 12.3x, or x12.3
SMOKE_TIMEOUT_SECONDS = 240


def test_every_benchmark_is_found() -> None:
    names = {path.stem for path in SCRIPTS}
    assert {"fleet", "gateways", "rollout", "api", "catalogs"} <= names, names


def test_the_smokes_that_start_the_stack_are_of_the_stack_tier() -> None:
    stack = {param.id for param in smoke_params() if param.marks}
    assert {"fleet", "gateways", "rollout", "api", "fairness", "slow_cluster"} <= stack, stack
    assert "devcluster_list" not in stack, stack


@pytest.mark.parametrize("script", smoke_params())
def test_the_benchmark_runs_at_its_smoke_size(script: Path) -> None:
    env = {**os.environ, "BENCH_DB_NAME": f"bench_smoke_{script.stem}", "PYTHONUNBUFFERED": "1"}
    result = subprocess.run(
        [sys.executable, str(script), "--smoke"],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=SMOKE_TIMEOUT_SECONDS,
        check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, f"{script.name} --smoke exited {result.returncode}:\n{output[-4000:]}"
    assert RATIO.search(result.stdout), f"{script.name} --smoke printed no ratio:\n{result.stdout[-4000:]}"
    print(result.stdout)
