"""Exit codes, and the errors that carry them (printed on stderr by click).

0 ok, 1 API or connection error, 2 usage (bad arguments, files or configuration), 3 not found, 4 timeout.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import click

__all__ = ["API_ERROR", "NOT_FOUND", "OK", "TIMEOUT", "USAGE", "ApiError", "CliError", "api_error", "exit_code_for"]

OK, API_ERROR, USAGE, NOT_FOUND, TIMEOUT = 0, 1, 2, 3, 4


class CliError(click.ClickException):
    """A failure with its exit code and detail lines (field errors, for instance)."""

    def __init__(self, message: str, exit_code: int = API_ERROR, details: Iterable[str] = ()) -> None:
        super().__init__(message)
        self.exit_code = exit_code
        self.details = list(details)

    def format_message(self) -> str:
        return "\n".join([self.message, *(f"  {line}" for line in self.details)])


class ApiError(CliError):
    """An answer in the API's error shape ``{"error": {status, code, message, fields}}``."""

    def __init__(self, status: int, code: str, message: str, fields: dict[str, Any] | None = None) -> None:
        details = [f"{name}: {'; '.join(_strings(errors))}" for name, errors in (fields or {}).items()]
        super().__init__(f"{message} (HTTP {status}, {code})", exit_code_for(status), details)
        self.status, self.code, self.fields = status, code, fields or {}


def _strings(errors: Any) -> list[str]:
    return [str(item) for item in errors] if isinstance(errors, list) else [str(errors)]


def exit_code_for(status: int) -> int:
    """The exit code for a failed HTTP status: 3 for 404, otherwise 1."""
    return NOT_FOUND if status == 404 else API_ERROR


def api_error(status: int, content: bytes) -> ApiError:
    """Read the error shape from a response body; a body in another shape is quoted (shortened) instead."""
    try:
        error = json.loads(content)["error"]
        return ApiError(int(error["status"]), str(error["code"]), str(error["message"]), error.get("fields"))
    except (ValueError, KeyError, TypeError):
        text = " ".join(content.decode(errors="replace").split())[:300] or "no body"
        return ApiError(status, "unexpected", f"unexpected answer: {text}")
