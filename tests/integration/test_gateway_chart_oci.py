"""The gateway chart from an OCI registry (oci://... with a pinned version), loaded once per worker."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from gateways.chart_source import chart_source_problem
from workers import runtime
from workers.drivers.helm import is_loopback_oci

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
HELM = ROOT / ".tools" / "helm"


@pytest.mark.parametrize(
    ("ref", "loopback"),
    [
        ("oci://127.0.0.1:5000/charts/gw", True),
        ("oci://localhost/charts/gw", True),
        ("oci://registry.example.com/charts/gw", False),
        ("/charts/gw.tgz", False),
        ("oci://127.0.0.1.evil.test/x", False),
    ],
)
def test_plain_http_only_for_loopback(ref: str, loopback: bool) -> None:
    assert is_loopback_oci(ref) is loopback


def test_worker_loads_a_pinned_chart_from_an_oci_registry(registry, tmp_path, settings) -> None:
    env = {**os.environ, "HOME": str(tmp_path), "HELM_CACHE_HOME": str(tmp_path / "c"),
           "HELM_CONFIG_HOME": str(tmp_path / "cfg"), "HELM_DATA_HOME": str(tmp_path / "d")}
    package = subprocess.run([HELM, "package", ROOT / "tests" / "charts" / "gateway", "-d", tmp_path], env=env,
                             capture_output=True, text=True, check=True)
    archive = package.stdout.strip().rsplit(": ", 1)[1]
    pushed = subprocess.run([HELM, "push", archive, f"oci://{registry.host}/charts", "--plain-http"], env=env,
                            capture_output=True, text=True, check=True)

    settings.GATEWAY_CHART = f"oci://{registry.host}/charts/openshell-gateway"
    settings.GATEWAY_CHART_VERSION = "0.1.0"
    digest = re.search(r"Digest: (sha256:[0-9a-f]{64})", pushed.stdout + pushed.stderr).group(1)
    settings.HELM_HOME = str(tmp_path / "worker-helm")
    runtime.chart.cache_clear()
    runtime.helm.cache_clear()
    try:
        chart = runtime.gateway_chart()
        assert chart.chart_version == "0.1.0" and chart.version is None
        assert Path(chart.ref).is_file() and Path(chart.ref).suffix == ".tgz"
        assert chart.defaults["image"]["repository"] and "grpcRoute" in chart.defaults
        assert runtime.gateway_chart() is chart
        assert Path(chart.ref).parent.parent == tmp_path / "worker-helm" / "charts"  # the worker's chart cache

        # Pinned by digest instead of a version: accepted at start-up, and helm v4 pulls exactly that artifact.
        settings.GATEWAY_CHART, settings.GATEWAY_CHART_VERSION = f"{settings.GATEWAY_CHART}@{digest}", ""
        assert chart_source_problem(settings.GATEWAY_CHART, "") is None
        runtime.chart.cache_clear()
        by_digest = runtime.gateway_chart()
        assert by_digest.chart_version == "0.1.0" and by_digest.ref != chart.ref
        assert by_digest.defaults == chart.defaults
    finally:
        runtime.chart.cache_clear()
        runtime.helm.cache_clear()
