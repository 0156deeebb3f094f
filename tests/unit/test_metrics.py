"""Pass and helm metrics: what a pass records, and how figures of several processes are summed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from prometheus_client import REGISTRY

from controlplane.metrics import PassOutcome, scrape_registry, timed_pass
from controlplane.scrape import queue_keys


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_a_pass_is_counted_by_result_and_timed() -> None:
    before = (
        sample("reconcile_passes_total", kind="unit", result="success"),
        sample("reconcile_passes_total", kind="unit", result="requeued"),
        sample("reconcile_pass_duration_seconds_count", kind="unit"),
    )
    with timed_pass("unit"):
        pass
    with timed_pass("unit") as pass_:
        pass_.result = PassOutcome.REQUEUED
    after = (
        sample("reconcile_passes_total", kind="unit", result="success"),
        sample("reconcile_passes_total", kind="unit", result="requeued"),
        sample("reconcile_pass_duration_seconds_count", kind="unit"),
    )
    assert [a - b for a, b in zip(after, before, strict=True)] == [1, 1, 2]


def test_a_pass_that_raises_counts_as_failed_whatever_it_set() -> None:
    before = sample("reconcile_passes_total", kind="unit", result="failed")
    with pytest.raises(RuntimeError), timed_pass("unit") as pass_:
        pass_.result = PassOutcome.SUCCESS
        raise RuntimeError("boom")
    assert sample("reconcile_passes_total", kind="unit", result="failed") - before == 1


def test_figures_of_separate_processes_are_summed(tmp_path: Path) -> None:
    script = "from controlplane import metrics\nmetrics.count_helm('install')\nwith metrics.timed_pass('gateway'): pass"
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}
    for _ in range(2):
        subprocess.run([sys.executable, "-c", script], env=env, check=True, timeout=60)
    registry = scrape_registry([], multiproc_dir=str(tmp_path))
    assert registry.get_sample_value("helm_invocations_total", {"command": "install"}) == 2
    assert registry.get_sample_value("reconcile_passes_total", {"kind": "gateway", "result": "success"}) == 2
    assert registry.get_sample_value("reconcile_pass_duration_seconds_count", {"kind": "gateway"}) == 2
    # This process's own figures are not part of a multiprocess scrape.
    assert registry.get_sample_value("reconcile_passes_total", {"kind": "unit", "result": "success"}) is None


def test_queue_keys_cover_every_priority_list() -> None:
    assert queue_keys("celery") == ["celery", "celery\x06\x163", "celery\x06\x166", "celery\x06\x169"]
