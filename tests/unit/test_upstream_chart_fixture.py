"""tests.fixtures.charts: an absent upstream chart skips with the reason, or fails with REQUIRE_UPSTREAM_CHART=1."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fixtures.charts import PROJECT_ROOT, require_upstream_chart, upstream_chart_dir


def test_the_default_location_is_beside_the_repository(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("UPSTREAM_CHART_DIR", raising=False)
    assert upstream_chart_dir() == PROJECT_ROOT.parent / "shared" / "charts" / "openshell"


def test_an_absent_chart_skips_saying_why(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("UPSTREAM_CHART_DIR", str(tmp_path / "nowhere"))
    monkeypatch.delenv("REQUIRE_UPSTREAM_CHART", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"upstream OpenShell chart is not at .*nowhere"):
        require_upstream_chart()


def test_an_absent_chart_fails_when_required(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("UPSTREAM_CHART_DIR", str(tmp_path / "nowhere"))
    monkeypatch.setenv("REQUIRE_UPSTREAM_CHART", "1")
    with pytest.raises(pytest.fail.Exception, match="REQUIRE_UPSTREAM_CHART=1 but"):
        require_upstream_chart()


def test_a_present_chart_is_returned(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "Chart.yaml").write_text("apiVersion: v2\nname: helm-chart\nversion: 0.0.0\n")
    monkeypatch.setenv("UPSTREAM_CHART_DIR", str(tmp_path))
    assert require_upstream_chart() == tmp_path
