"""The one place for OpenAPI schema tweaks: every operation documents the shared error shape."""

from __future__ import annotations

from typing import Any, Literal

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import serializers

from controlplane.api.serializers import ModelCleanSerializer
from controlplane.api.views import ReconciledModelViewSet

__all__ = ["AutoSchema", "ErrorSerializer", "add_links", "crud_operation_ids"]


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

# Error responses an operation has beyond the generic ones, by operationId.
_EXTRA_ERRORS: dict[str, tuple[str, ...]] = {
    "clusters_destroy": ("409",),  # the cluster still has gateways
    "receivers_destroy": ("409",),  # the receiver still has subscriptions
    "catalogs_diff": ("400", "503"),  # a malformed digest; the content store does not answer
    "gateways_destroy": ("400",),  # ?force= that is not a boolean
}

# Optimistic concurrency (every ReconciledModelViewSet): responses with the object carry an ETag; PUT, PATCH
# and DELETE take If-Match.
_ETAG_READ_ACTIONS = ("create", "retrieve", "update", "partial_update")
_ETAG_WRITE_ACTIONS = ("update", "partial_update", "destroy")

ETAG_HEADER = OpenApiParameter(
    "ETag",
    str,
    OpenApiParameter.HEADER,
    response=["200", "201"],
    description="The representation's version; send it back in `If-Match` to update or delete safely.",
)
IF_MATCH_HEADER = OpenApiParameter(
    "If-Match",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="An `ETag` from an earlier read. If the resource has changed since, the request fails with 412; "
    "without the header the write is unconditional.",
)

RETRY_AFTER_HEADER = OpenApiParameter(
    "Retry-After",
    int,
    OpenApiParameter.HEADER,
    response=["429"],
    description="Seconds to wait before the token's rate limit admits another request.",
)

# Answered by the HTTP server in front of the application (gunicorn: request lines over 4094 bytes), not by
# the API, so its body has no contract.
URI_TOO_LONG = OpenApiResponse(description="The request line (path and query string) is too long for the server.")


class AutoSchema(SpectacularAutoSchema):
    """Adds 400/401/403/404/409/412/413/429 responses, as they apply, in the one error shape; and 414 to all.

    A component's description is its serializer's ``schema_description``, written for API users; docstrings are
    for the code's readers and never reach the schema (nor every generated client's docs)."""

    def _map_basic_serializer(self, serializer: Any, direction: str) -> dict[str, Any]:
        schema = super()._map_basic_serializer(serializer, direction)
        schema.pop("description", None)
        if description := getattr(serializer, "schema_description", ""):
            schema["description"] = description
        return schema

    def _error_codes(self) -> list[str]:
        codes = ["401", "403"]
        if self._is_detail():
            codes.append("404")
        if self.method in ("POST", "PUT", "PATCH"):
            codes.extend(_WRITE_ERRORS)
        elif self._is_list_view():
            codes.append("400")
        if self._action() in _ETAG_WRITE_ACTIONS and self._has_etag():
            codes.append("412")
        if self.view.get_throttles():
            codes.append("429")
        codes.extend(_EXTRA_ERRORS.get(self.get_operation_id(), ()))
        return codes

    def _action(self) -> str | None:
        return getattr(self.view, "action", None)

    def _has_etag(self) -> bool:
        return isinstance(self.view, ReconciledModelViewSet)

    def get_override_parameters(self) -> list[Any]:
        parameters = list(super().get_override_parameters())
        if self.view.get_throttles():
            parameters.append(RETRY_AFTER_HEADER)
        if self._has_etag():
            if self._action() in _ETAG_READ_ACTIONS:
                parameters.append(ETAG_HEADER)
            if self._action() in _ETAG_WRITE_ACTIONS:
                parameters.append(IF_MATCH_HEADER)
        return parameters

    def _is_detail(self) -> bool:
        return "{" in self.path

    def _map_serializer(self, serializer: Any, direction: str, bypass_extensions: bool = False) -> dict[str, Any]:
        schema = super()._map_serializer(serializer, direction, bypass_extensions)
        if direction == "request" and isinstance(serializer, ModelCleanSerializer):
            schema["additionalProperties"] = False  # unknown top-level fields get 400
        return schema

    def _get_response_bodies(self, direction: Literal["request", "response"] = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        for code in self._error_codes():
            responses.setdefault(code, self._get_response_for_code(ErrorSerializer, code, direction=direction))
        responses.setdefault("414", self._get_response_for_code(URI_TOO_LONG, "414", direction=direction))
        return responses


_CRUD_ACTIONS = ("list", "create", "retrieve", "update", "partial_update", "destroy")


def crud_operation_ids(prefix: str, **overrides: Any) -> Any:
    """Pin ``<prefix>_<action>`` operationIds so generated clients keep their method names."""
    schemas = {
        action: extend_schema(operation_id=f"{prefix}_{action}", **overrides.get(action, {}))
        for action in _CRUD_ACTIONS
    }
    return extend_schema_view(**schemas)


# Responses that carry an object, by the method of its detail or collection path, and their status code.
_OBJECT_RESPONSES = {"post": "201", "get": "200", "put": "200", "patch": "200"}


def add_links(result: dict[str, Any], **_: Any) -> dict[str, Any]:
    """A postprocessing hook: OpenAPI links from each response carrying an object (create, retrieve, update)
    to every operation on that object (`<collection>{id}/...`), its `id` taken from the response body."""
    paths = result.get("paths", {})
    for collection in [path for path in paths if not path.endswith("{id}/")]:
        detail = f"{collection}{{id}}/"
        targets = {
            operation["operationId"]: path
            for path, operations in paths.items()
            if path.startswith(detail)
            for operation in operations.values()
            if isinstance(operation, dict) and "operationId" in operation
        }
        if not targets:
            continue
        links = {
            target: {"operationId": target, "parameters": {"id": "$response.body#/id"}} for target in sorted(targets)
        }
        sources = [(paths[collection].get("post"), "201")] + [
            (paths.get(detail, {}).get(method), code) for method, code in _OBJECT_RESPONSES.items() if method != "post"
        ]
        for operation, code in sources:
            if operation and code in operation.get("responses", {}):
                operation["responses"][code]["links"] = links
    return result
