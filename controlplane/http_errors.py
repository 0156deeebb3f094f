"""The JSON error shape outside DRF: Django's error handlers, method checks, and database outages.
Plain Django (no DRF), so the content views use it too.

    {"error": {"status": 405, "code": "method_not_allowed", "message": "..."}}
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt

__all__ = [
    "DATABASE_RETRY_AFTER_SECONDS",
    "DatabaseOutageMiddleware",
    "allow_methods",
    "bad_request",
    "error_body",
    "json_error",
    "not_found",
    "permission_denied",
    "server_error",
]

log = logging.getLogger(__name__)
DATABASE_RETRY_AFTER_SECONDS = 5


def error_body(status_code: int, code: str, message: str, fields: dict[str, Any] | None = None) -> dict[str, Any]:
    error: dict[str, Any] = {"status": status_code, "code": code, "message": message}
    if fields:
        error["fields"] = fields
    return {"error": error}


def json_error(status_code: int, code: str, message: str) -> JsonResponse:
    return JsonResponse(error_body(status_code, code, message), status=status_code)


def allow_methods(*methods: str) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Other methods get a JSON 405 with ``Allow``; the view takes no form posts, so it needs no CSRF check."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method not in methods:
                response = json_error(405, "method_not_allowed", f"Method {request.method} is not allowed.")
                response["Allow"] = ", ".join(methods)
                return response
            return view(request, *args, **kwargs)

        return csrf_exempt(checked)

    return decorate


def not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return json_error(404, "not_found", f"No route matches {request.path!r}.")


def server_error(request: HttpRequest) -> JsonResponse:
    return json_error(500, "server_error", "Internal error; it has been logged.")


def bad_request(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return json_error(400, "bad_request", "The request is malformed.")


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return json_error(403, "permission_denied", "You do not have permission to do this.")


class DatabaseOutageMiddleware:
    """A database that cannot be reached (or that refuses work for now: OperationalError) is a 503 with
    Retry-After, not a 500. Each request opens its connection afresh (or Django discards a broken
    persistent one), so service resumes by itself."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        log.warning("database unavailable for %s %s: %s", request.method, request.path, type(exception).__name__)
        response = json_error(503, "database_unavailable", "The database cannot be reached; try again shortly.")
        response["Retry-After"] = str(DATABASE_RETRY_AFTER_SECONDS)
        return response
