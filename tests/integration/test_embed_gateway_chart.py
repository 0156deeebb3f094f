"""The image's chart step (scripts/embed_gateway_chart.py) run for real: the real helm pulls the mirror chart
from a real registry, and only an archive with the pinned sha256 is embedded."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures.charts import MIRROR_CHART, PROJECT_ROOT, push_chart
from tests.fixtures.registry import Registry

pytestmark = pytest.mark.integration

SCRIPT = PROJECT_ROOT / "scripts" / "embed_gateway_chart.py"


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, SCRIPT, *map(str, args)], capture_output=True, text=True, timeout=120)


def write_pin(path: Path, ref: str, version: str = "", sha256: str = "") -> Path:
    path.write_text(f"# a test pin\nref={ref}\nversion={version}\nsha256={sha256}\n")
    return path


def test_the_build_embeds_only_the_pinned_archive_and_a_pin_is_recorded_from_the_registry(
    registry: Registry, tmp_path: Path
) -> None:
    archive, _ = push_chart(MIRROR_CHART, registry.host, "embed", tmp_path)
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    ref = f"oci://{registry.host}/embed/openshell-gateway"
    dest = tmp_path / "image" / "charts" / "gateway-chart.tgz"

    unpinned = run(write_pin(tmp_path / "unpinned.pin", ref), dest)
    assert unpinned.returncode != 0 and "does not pin ref, version and sha256" in unpinned.stderr

    wrong = run(write_pin(tmp_path / "wrong.pin", ref, "0.1.0", "0" * 64), dest)
    assert wrong.returncode != 0 and f"has sha256 {digest}, not the pinned" in wrong.stderr
    assert not dest.exists()

    absent = run(write_pin(tmp_path / "absent.pin", ref, "9.9.9", digest), dest)
    assert absent.returncode != 0 and "helm pull" in absent.stderr and not dest.exists()

    embedded = run(write_pin(tmp_path / "good.pin", ref, "0.1.0", digest), dest)
    assert embedded.returncode == 0, embedded.stderr
    assert hashlib.sha256(dest.read_bytes()).hexdigest() == digest
    assert sorted(p.name for p in dest.parent.iterdir()) == ["gateway-chart.tgz"]

    recorded = write_pin(tmp_path / "new.pin", ref)
    assert run("--pin", "0.1.0", recorded).returncode == 0
    assert f"version=0.1.0\nsha256={digest}\n" in recorded.read_text() and "# a test pin" in recorded.read_text()
