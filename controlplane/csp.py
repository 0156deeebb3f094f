"""Content-Security-Policy for every HTML page (the console and the API docs): our own origin only.

Scripts come only from our static files: the console has no inline script, and the docs load their
init script from a URL (`SpectacularSwaggerSplitView`). The docs pages also allow inline styles,
because Swagger UI and Redoc inject their CSS at run time, and Redoc runs its search in a blob: worker.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse

__all__ = ["DOCS_POLICY", "POLICY", "ContentSecurityPolicyMiddleware", "csp", "header_value"]

HEADER = "Content-Security-Policy"
POLICY: dict[str, str] = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
DOCS_POLICY: dict[str, str] = {**POLICY, "style-src": "'self' 'unsafe-inline'", "worker-src": "'self' blob:"}


def header_value(policy: dict[str, str]) -> str:
    return "; ".join(f"{directive} {sources}" for directive, sources in policy.items())


def csp(policy: dict[str, str]) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Give one view's responses ``policy`` instead of the default."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def with_policy(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            response = view(request, *args, **kwargs)
            response[HEADER] = header_value(policy)
            return response

        return with_policy

    return decorate


class ContentSecurityPolicyMiddleware:
    """Sets the default policy on HTML responses that have none."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.value = header_value(POLICY)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if HEADER not in response and response.get("Content-Type", "").startswith("text/html"):
            response[HEADER] = self.value
        return response
