"""Kubernetes API errors rendered as `metav1.Status` objects."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An error answered to the client as a `Status` with the given HTTP code and reason."""

    def __init__(self, code: int, reason: str, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason
        self.message = message
        self.details = details

    def status(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": self.message,
            "reason": self.reason,
            "code": self.code,
        }
        if self.details is not None:
            body["details"] = self.details
        return body


def _details(group: str, plural: str, name: str) -> dict[str, Any]:
    return {"name": name, "group": group, "kind": plural}


def qualified(group: str, plural: str) -> str:
    """The resource as Kubernetes spells it in messages, e.g. `deployments.apps`."""
    return f"{plural}.{group}" if group else plural


def not_found(group: str, plural: str, name: str) -> ApiError:
    return ApiError(404, "NotFound", f'{qualified(group, plural)} "{name}" not found', _details(group, plural, name))


def already_exists(group: str, plural: str, name: str) -> ApiError:
    return ApiError(
        409,
        "AlreadyExists",
        f'{qualified(group, plural)} "{name}" already exists',
        _details(group, plural, name),
    )


def conflict(group: str, plural: str, name: str, why: str) -> ApiError:
    return ApiError(
        409,
        "Conflict",
        f'Operation cannot be fulfilled on {qualified(group, plural)} "{name}": {why}',
        _details(group, plural, name),
    )


def invalid(group: str, kind: str, name: str, field: str, why: str) -> ApiError:
    details = {
        "name": name,
        "group": group,
        "kind": kind,
        "causes": [{"reason": "FieldValueInvalid", "message": why, "field": field}],
    }
    return ApiError(422, "Invalid", f'{kind} "{name}" is invalid: {field}: {why}', details)


def bad_request(message: str) -> ApiError:
    return ApiError(400, "BadRequest", message)


def forbidden(message: str) -> ApiError:
    return ApiError(403, "Forbidden", message)


def method_not_allowed(method: str) -> ApiError:
    return ApiError(405, "MethodNotAllowed", f"the server does not allow this method ({method}) on the resource")


def unsupported_media_type(content_type: str) -> ApiError:
    return ApiError(415, "UnsupportedMediaType", f"the body of the request was in an unknown format: {content_type}")


def gone(message: str) -> ApiError:
    return ApiError(410, "Expired", message)


def page_not_found(path: str) -> ApiError:
    return ApiError(404, "NotFound", f"the server could not find the requested resource ({path})")
