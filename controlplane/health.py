"""Health endpoints: ``/healthz`` says the process is up; ``/readyz`` checks the DB and the broker."""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from kombu import Connection

from controlplane.http_errors import allow_methods

__all__ = ["healthz", "readyz"]


def _check_database() -> str | None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as exc:
        return f"database unreachable: {type(exc).__name__}"
    return None


def _check_broker() -> str | None:
    try:
        with Connection(settings.CELERY_BROKER_URL, connect_timeout=2) as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:
        return f"broker unreachable: {type(exc).__name__}"
    return None


@allow_methods("GET", "HEAD")
def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


@allow_methods("GET", "HEAD")
def readyz(request: HttpRequest) -> JsonResponse:
    checks = {"database": _check_database(), "broker": _check_broker()}
    failures = [message for message in checks.values() if message]
    body = {
        "status": "ready" if not failures else "not ready",
        "checks": {name: message or "ok" for name, message in checks.items()},
    }
    return JsonResponse(body, status=503 if failures else 200)
