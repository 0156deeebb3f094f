"""Helpers for tests that run the project's own commands in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_manage(*args: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run ``manage.py`` with the test environment, optionally overriding variables (None values unset)."""
    merged = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        env={k: v for k, v in merged.items() if v is not None},
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )
