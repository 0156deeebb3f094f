"""The one place for OpenAPI schema tweaks: every operation documents the shared error shape."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers

__all__ = ["AutoSchema", "ErrorSerializer", "crud_operation_ids"]


class ErrorDetailSerializer(serializers.Serializer):
    status = serializers.IntegerField(help_text="The HTTP status code.")
    code = serializers.CharField(help_text="A stable, machine-readable error code.")
    message = serializers.CharField(help_text="A human-readable explanation.")
    fields = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="Per-field messages, keyed by the API field path (for example `route.host`).",
    )


class ErrorSerializer(serializers.Serializer):
    error = ErrorDetailSerializer()


_WRITE_ERRORS = ("400", "409", "413")


class AutoSchema(SpectacularAutoSchema):
    """Adds 400/401/403/404/409/413 responses, as they apply, in the one error shape."""

    def _error_codes(self) -> list[str]:
        codes = ["401", "403"]
        if self._is_detail():
            codes.append("404")
        if self.method in ("POST", "PUT", "PATCH"):
            codes.extend(_WRITE_ERRORS)
        elif self._is_list_view():
            codes.append("400")
        return codes

    def _is_detail(self) -> bool:
        return "{" in self.path

    def _get_response_bodies(self, direction: str = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        for code in self._error_codes():
            responses.setdefault(code, self._get_response_for_code(ErrorSerializer, code, direction=direction))
        return responses


_CRUD_ACTIONS = ("list", "create", "retrieve", "update", "partial_update", "destroy")


def crud_operation_ids(prefix: str, **overrides: Any) -> Any:
    """Pin ``<prefix>_<action>`` operationIds so generated clients keep their method names."""
    schemas = {
        action: extend_schema(operation_id=f"{prefix}_{action}", **overrides.get(action, {}))
        for action in _CRUD_ACTIONS
    }
    return extend_schema_view(**schemas)
