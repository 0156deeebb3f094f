"""One JSON error shape for every API error (the shape lives in `controlplane.http_errors`):

{"error": {"status": 400, "code": "invalid", "message": "...", "fields": {"name": ["..."]}}}
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response

from controlplane.http_errors import error_body

__all__ = ["ApiConflict", "PayloadTooLarge", "PreconditionFailed", "exception_handler"]

log = logging.getLogger(__name__)


class ApiConflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "The request conflicts with the current state of the resource."
    default_code = "conflict"


class PreconditionFailed(exceptions.APIException):
    status_code = status.HTTP_412_PRECONDITION_FAILED
    default_detail = "The resource has changed since you read it (If-Match failed)."
    default_code = "precondition_failed"


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The request body is too large."
    default_code = "payload_too_large"


def _flatten(detail: Any) -> Any:
    """Turn DRF's nested ErrorDetail structures into plain strings, lists and dicts."""
    if isinstance(detail, dict):
        return {key: _flatten(value) for key, value in detail.items()}
    if isinstance(detail, list):
        return [_flatten(item) for item in detail]
    return str(detail)


def _field_paths(detail: Any, prefix: str = "") -> dict[str, Any]:
    """Nested field errors become dotted paths: ``{"oidc": {"issuer": [...]}}`` -> ``{"oidc.issuer": [...]}``."""
    if not isinstance(detail, dict):
        return {prefix or "non_field_errors": _flatten(detail if isinstance(detail, list) else [detail])}
    paths: dict[str, Any] = {}
    for key, value in detail.items():
        paths.update(_field_paths(value, f"{prefix}.{key}" if prefix else str(key)))
    return paths


def _first_code(codes: Any) -> str:
    if isinstance(codes, dict):
        return _first_code(next(iter(codes.values()), "invalid"))
    if isinstance(codes, list):
        return _first_code(codes[0]) if codes else "invalid"
    return str(codes)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge(f"The request body is larger than {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes.")
    # Imported here: rest_framework.views reads DEFAULT_PARSER_CLASSES on import, and our parser imports this module.
    from rest_framework.views import exception_handler as drf_exception_handler

    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    assert isinstance(exc, exceptions.APIException)
    if isinstance(exc, exceptions.ValidationError):
        fields = _field_paths(exc.detail)
        message = "The request is invalid; see fields."
        response.data = error_body(response.status_code, _first_code(exc.get_codes()), message, fields)
    else:
        response.data = error_body(response.status_code, _first_code(exc.get_codes()), str(exc.detail))
    return response
