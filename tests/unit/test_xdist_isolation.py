"""Each pytest-xdist worker flushes a broker and a cache of its own (tests/settings_env.py)."""

from __future__ import annotations

import os

import pytest

from tests import settings_env


def isolated(worker: str, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://127.0.0.1:6390/15")
    monkeypatch.setenv("CACHE_URL", "redis://127.0.0.1:6390/13")
    settings_env._isolate_xdist_worker(worker)
    return os.environ["CELERY_BROKER_URL"], os.environ["CACHE_URL"]


def test_no_two_workers_share_a_redis_database_and_each_keeps_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    urls = [url for n in range(len(settings_env.WORKER_REDIS_DATABASES)) for url in isolated(f"gw{n}", monkeypatch)]
    assert len(set(urls)) == len(urls), urls
    assert all(url.startswith("redis://127.0.0.1:6390/") for url in urls), urls


def test_no_worker_takes_the_benchmarks_or_make_runs_databases() -> None:
    used = {number for pair in settings_env.WORKER_REDIS_DATABASES for number in pair}
    assert not used & ({0, 1} | set(range(7, 13))), used


def test_more_workers_than_there_are_databases_for_stop_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SystemExit, match="at most 4"):
        isolated("gw4", monkeypatch)
