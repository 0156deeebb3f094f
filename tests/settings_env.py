"""Loaded with -p before Django starts: test-only defaults for settings production requires, and for each
pytest-xdist worker a broker and a cache of its own (pytest-django gives each its own test database)."""

import os
from urllib.parse import urlsplit, urlunsplit

from tests.paths import MIRROR_CHART

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production-use-0123456789")
os.environ.setdefault("FIELD_ENCRYPTION_KEY", "dGVzdC1vbmx5LWZpZWxkLWVuY3J5cHRpb24ta2V5MDE=")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/controlplane")
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/15")
os.environ.setdefault("CACHE_URL", "redis://127.0.0.1:6379/13")
# The fast mirror chart, chosen explicitly (production defaults to the upstream chart over oci://).
os.environ.setdefault("GATEWAY_CHART", str(MIRROR_CHART))
# Tenants' tests name their own images: allow overrides from any repository (production denies them by default).
os.environ.setdefault("GATEWAY_IMAGE_OVERRIDES", "allow")
os.environ.setdefault("GATEWAY_IMAGE_REPOSITORIES", "*")

# The Redis database numbers (broker, cache) of each pytest-xdist worker, on the server the URLs above name. Tests
# flush them, so no two workers share one. Numbers 7 to 12 are the benchmarks', and 0 and 1 are `make run`'s.
WORKER_REDIS_DATABASES = ((15, 13), (14, 6), (5, 4), (3, 2))


def on_database(url: str, database: int) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{database}"))


def _isolate_xdist_worker(worker: str) -> None:
    index = int(worker.removeprefix("gw"))
    if index >= len(WORKER_REDIS_DATABASES):
        raise SystemExit(f"at most {len(WORKER_REDIS_DATABASES)} pytest-xdist workers (-n) have a Redis of their own")
    broker, cache = WORKER_REDIS_DATABASES[index]
    os.environ["CELERY_BROKER_URL"] = on_database(os.environ["CELERY_BROKER_URL"], broker)
    os.environ["CACHE_URL"] = on_database(os.environ["CACHE_URL"], cache)


if "PYTEST_XDIST_WORKER" in os.environ:
    _isolate_xdist_worker(os.environ["PYTEST_XDIST_WORKER"])
