"""The client in ``clients/python`` is what the generator makes from today's schema (else: ``make client``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.paths import PROJECT_ROOT

COMMITTED = PROJECT_ROOT / "clients" / "python" / "controlplane_client"


def tree(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` by relative path, leaving out Python's bytecode caches (never generated)."""
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


def test_the_committed_client_is_fresh(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "clients/generate.py", str(tmp_path)],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    fresh, committed = tree(tmp_path / "controlplane_client"), tree(COMMITTED)
    assert len(fresh) > 50, sorted(fresh)
    stale = sorted(name for name in fresh.keys() | committed.keys() if fresh.get(name) != committed.get(name))
    assert not stale, f"clients/python is stale; run `make client` and commit it. Differing files: {stale}"
