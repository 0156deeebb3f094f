"""OpenAPI v3 documents: the root index and one document per served group/version.

Clients read them to check which query parameters a PATCH supports (helm needs `fieldValidation`)
and, for custom resources, the schema tagged with `x-kubernetes-group-version-kind`.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from devcluster.registry import Registry
from devcluster.resources import ResourceType

_BUILTIN_SCHEMA_PREFIX = {
    "": "io.k8s.api.core.v1",
    "apps": "io.k8s.api.apps.v1",
    "batch": "io.k8s.api.batch.v1",
    "rbac.authorization.k8s.io": "io.k8s.api.rbac.v1",
    "networking.k8s.io": "io.k8s.api.networking.v1",
    "policy": "io.k8s.api.policy.v1",
    "autoscaling": "io.k8s.api.autoscaling.v2",
    "apiextensions.k8s.io": "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1",
}
_META = "io.k8s.apimachinery.pkg.apis.meta.v1"
# Strategic merge patches are accepted but deliberately not advertised: kubectl would then compute them
# from these (schema-less) documents instead of from its compiled-in types, and warn on every apply.
_PATCH_TYPES = ("application/apply-patch+yaml", "application/json-patch+json", "application/merge-patch+json")


def _query(name: str, description: str, type_: str = "string") -> dict[str, Any]:
    return {"name": name, "in": "query", "description": description, "schema": {"type": type_, "uniqueItems": True}}


_WRITE_PARAMETERS = [
    _query("dryRun", "When present, indicates that modifications should not be persisted."),
    _query("fieldManager", "fieldManager is a name associated with the actor or entity that is making these changes."),
    _query("fieldValidation", "Ignore, Warn or Strict: how to handle unknown or duplicate fields in the request."),
]


def schema_name(rt: ResourceType) -> str:
    prefix = _BUILTIN_SCHEMA_PREFIX.get(rt.group)
    if prefix and rt.schema is None:
        return f"{prefix}.{rt.kind}"
    reversed_group = ".".join(reversed(rt.group.split(".")))
    return f"{reversed_group}.{rt.version}.{rt.kind}"


def _gvk(rt: ResourceType) -> dict[str, str]:
    return {"group": rt.group, "version": rt.version, "kind": rt.kind}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def _operation(
    rt: ResourceType, action: str, verb: str, schema: str, parameters: list[dict[str, Any]]
) -> dict[str, Any]:
    scope = "Namespaced" if rt.namespaced else ""
    group = "".join(part.capitalize() for part in (rt.group.split(".")[0] or "core").split("-"))
    operation: dict[str, Any] = {
        "operationId": f"{verb}{group}{rt.version.capitalize()}{scope}{rt.kind}",
        "tags": [f"{rt.group.split('.')[0] or 'core'}_{rt.version}"],
        "parameters": parameters,
        "responses": {"200": {"description": "OK", "content": {"application/json": {"schema": _ref(schema)}}}},
        "x-kubernetes-action": action,
        "x-kubernetes-group-version-kind": _gvk(rt),
    }
    if action in ("post", "put"):
        operation["requestBody"] = {"content": {"*/*": {"schema": _ref(schema)}}, "required": True}
    if action == "patch":
        patch_schema = {"schema": _ref(f"{_META}.Patch")}
        operation["requestBody"] = {"content": {t: patch_schema for t in _PATCH_TYPES}, "required": True}
    return operation


def _paths(rt: ResourceType) -> dict[str, Any]:
    prefix = f"/apis/{rt.group}/{rt.version}" if rt.group else "/api/v1"
    collection = f"{prefix}/namespaces/{{namespace}}/{rt.plural}" if rt.namespaced else f"{prefix}/{rt.plural}"
    schema = schema_name(rt)
    path_params = (
        [{"name": "namespace", "in": "path", "required": True, "schema": {"type": "string"}}] if rt.namespaced else []
    )
    name_param = {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}
    force = _query("force", "Force is going to force Apply requests.", "boolean")
    paths = {
        collection: {
            "get": _operation(rt, "list", "list", schema, []),
            "post": _operation(rt, "post", "create", schema, _WRITE_PARAMETERS),
            "parameters": path_params,
        },
        f"{collection}/{{name}}": {
            "get": _operation(rt, "get", "read", schema, []),
            "put": _operation(rt, "put", "replace", schema, _WRITE_PARAMETERS),
            "patch": _operation(rt, "patch", "patch", schema, [*_WRITE_PARAMETERS, force]),
            "delete": _operation(rt, "delete", "delete", schema, _WRITE_PARAMETERS[:1]),
            "parameters": [name_param, *path_params],
        },
    }
    if rt.has_status:
        paths[f"{collection}/{{name}}/status"] = {
            "get": _operation(rt, "get", "read", schema, []),
            "put": _operation(rt, "put", "replace", schema, _WRITE_PARAMETERS),
            "patch": _operation(rt, "patch", "patch", schema, [*_WRITE_PARAMETERS, force]),
            "parameters": [name_param, *path_params],
        }
    return paths


def _kind_schema(rt: ResourceType) -> dict[str, Any]:
    if rt.schema is not None:
        schema = dict(rt.schema)
    else:
        schema = {"type": "object", "description": f"{rt.kind} ({rt.group_version})"}
    schema["x-kubernetes-group-version-kind"] = [_gvk(rt)]
    return schema


def group_version_document(registry: Registry, group: str, version: str) -> dict[str, Any] | None:
    served = registry.for_group_version(group, version)
    if not served:
        return None
    paths: dict[str, Any] = {}
    schemas: dict[str, Any] = {f"{_META}.Patch": {"type": "object", "description": "A patch document."}}
    for rt in served:
        paths.update(_paths(rt))
        schemas[schema_name(rt)] = _kind_schema(rt)
    return {
        "openapi": "3.0.0",
        "info": {"title": "Kubernetes", "version": "unversioned"},
        "paths": paths,
        "components": {"schemas": schemas},
    }


def _hash(document: dict[str, Any]) -> str:
    return hashlib.sha512(json.dumps(document, sort_keys=True).encode()).hexdigest()[:64].upper()


def root_document(registry: Registry) -> dict[str, Any]:
    paths: dict[str, Any] = {}
    for group, versions in registry.groups().items():
        for version in versions:
            document = group_version_document(registry, group, version)
            key = f"apis/{group}/{version}" if group else "api/v1"
            paths[key] = {"serverRelativeURL": f"/openapi/v3/{key}?hash={_hash(document or {})}"}
    return {"paths": paths}
