"""Health endpoints: ``/healthz`` says the process is up; ``/readyz`` checks the DB and the broker.

``/readyz`` also reports the cache, but a cache outage alone keeps it 200: the API still serves
reads and writes, with rate limits counted per process (see ``controlplane.api.throttling``).
The slim content server's ``/readyz`` checks the database only: content needs neither broker nor
cache, so kombu is imported only when the broker is checked.
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse

from controlplane.http_errors import allow_methods

__all__ = ["healthz", "readyz", "readyz_content"]


def _check_database() -> str | None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as exc:
        return f"database unreachable: {type(exc).__name__}"
    return None


def _check_broker() -> str | None:
    from kombu.connection import Connection

    try:
        with Connection(settings.CELERY_BROKER_URL, connect_timeout=2) as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:
        return f"broker unreachable: {type(exc).__name__}"
    return None


def _check_cache() -> str:
    try:
        cache.get("readyz")
    except Exception as exc:
        return f"cache unreachable: {type(exc).__name__}; rate limits are per process"
    return "ok"


@allow_methods("GET", "HEAD")
def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


@allow_methods("GET", "HEAD")
def readyz(request: HttpRequest) -> JsonResponse:
    checks = {"database": _check_database(), "broker": _check_broker()}
    failures = [message for message in checks.values() if message]
    body = {
        "status": "ready" if not failures else "not ready",
        "checks": {**{name: message or "ok" for name, message in checks.items()}, "cache": _check_cache()},
    }
    return JsonResponse(body, status=503 if failures else 200)


@allow_methods("GET", "HEAD")
def readyz_content(request: HttpRequest) -> JsonResponse:
    failure = _check_database()
    body = {"status": "not ready" if failure else "ready", "checks": {"database": failure or "ok"}}
    return JsonResponse(body, status=503 if failure else 200)
