"""Patch formats: JSON merge patch, strategic merge patch, JSON patch and server-side apply merging."""

from __future__ import annotations

import copy
from typing import Any

from devcluster.errors import ApiError, bad_request

# List fields merged element-wise by a key in strategic merge patches, by field name.
STRATEGIC_MERGE_KEYS: dict[str, str] = {
    "containers": "name",
    "initContainers": "name",
    "ephemeralContainers": "name",
    "volumes": "name",
    "env": "name",
    "imagePullSecrets": "name",
    "volumeMounts": "mountPath",
    "volumeDevices": "devicePath",
    "tolerations": "key",
    "hostAliases": "ip",
    "conditions": "type",
    "ownerReferences": "uid",
}


def json_merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386: objects merge recursively, `null` deletes, anything else replaces."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    result = copy.deepcopy(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = json_merge_patch(result.get(key), value)
    return result


def _list_merge_key(field: str, items: list[Any]) -> str | None:
    if not items or not all(isinstance(item, dict) for item in items):
        return None
    if field == "ports":
        return "containerPort" if any("containerPort" in item for item in items) else "port"
    return STRATEGIC_MERGE_KEYS.get(field)


def _merge_keyed_list(field: str, target: list[Any], patch: list[Any]) -> list[Any]:
    key = _list_merge_key(field, patch) or _list_merge_key(field, target)
    if key is None:
        return [_strip_directives(item) for item in patch]
    result = copy.deepcopy(target)
    for item in patch:
        index = next((i for i, old in enumerate(result) if old.get(key) == item.get(key)), None)
        if item.get("$patch") == "delete":
            if index is not None:
                result.pop(index)
        elif index is None:
            result.append(_strip_directives(item))
        else:
            result[index] = strategic_merge_patch(result[index], item)
    return result


def _strip_directives(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip_directives(v) for k, v in value.items() if not k.startswith("$")}
    if isinstance(value, list):
        return [_strip_directives(item) for item in value]
    return value


def strategic_merge_patch(target: Any, patch: Any) -> Any:
    """A practical subset of strategic merge: keyed list merging and the `$patch`/`$retainKeys` directives."""
    if not isinstance(patch, dict):
        return _strip_directives(patch)
    directive = patch.get("$patch")
    if directive == "replace":
        return _strip_directives(patch)
    if directive == "delete":
        return None
    result = copy.deepcopy(target) if isinstance(target, dict) else {}
    retain = patch.get("$retainKeys")
    for key, value in patch.items():
        if key.startswith("$"):
            continue
        if value is None:
            result.pop(key, None)
        elif isinstance(value, list) and isinstance(result.get(key), list):
            result[key] = _merge_keyed_list(key, result[key], value)
        elif isinstance(value, dict):
            merged = strategic_merge_patch(result.get(key), value)
            if merged is None:
                result.pop(key, None)
            else:
                result[key] = merged
        else:
            result[key] = _strip_directives(value)
    if isinstance(retain, list):
        result = {k: v for k, v in result.items() if k in retain}
    return result


def _pointer(path: str) -> list[str]:
    if path == "":
        return []
    if not path.startswith("/"):
        raise bad_request(f"invalid JSON pointer: {path!r}")
    return [part.replace("~1", "/").replace("~0", "~") for part in path[1:].split("/")]


def _resolve(doc: Any, parts: list[str]) -> Any:
    for part in parts:
        if isinstance(doc, list):
            doc = doc[int(part)]
        elif isinstance(doc, dict):
            doc = doc[part]
        else:
            raise KeyError(part)
    return doc


def _add(doc: Any, parts: list[str], value: Any) -> Any:
    if not parts:
        return value
    parent = _resolve(doc, parts[:-1])
    last = parts[-1]
    if isinstance(parent, list):
        parent.insert(len(parent) if last == "-" else int(last), value)
    else:
        parent[last] = value
    return doc


def _remove(doc: Any, parts: list[str]) -> Any:
    parent = _resolve(doc, parts[:-1])
    last = parts[-1]
    return parent.pop(int(last) if isinstance(parent, list) else last)


def json_patch(target: Any, operations: Any) -> Any:
    """RFC 6902 operations: add, remove, replace, move, copy and test."""
    if not isinstance(operations, list):
        raise bad_request("json patch must be a list of operations")
    doc = copy.deepcopy(target)
    for op in operations:
        try:
            name, path = op["op"], _pointer(op["path"])
            if name == "add":
                doc = _add(doc, path, copy.deepcopy(op["value"]))
            elif name == "remove":
                _remove(doc, path)
            elif name == "replace":
                _resolve(doc, path)
                if path:
                    _remove(doc, path)
                doc = _add(doc, path, copy.deepcopy(op["value"]))
            elif name in ("move", "copy"):
                source = _pointer(op["from"])
                value = _remove(doc, source) if name == "move" else copy.deepcopy(_resolve(doc, source))
                doc = _add(doc, path, value)
            elif name == "test":
                if _resolve(doc, path) != op["value"]:
                    raise ApiError(422, "Invalid", f"the server rejected our request: test failed at {op['path']}")
            else:
                raise bad_request(f"unknown json patch op {name!r}")
        except (KeyError, IndexError, ValueError, TypeError) as exc:
            message = f"the server rejected our request due to an error in our request: {exc}"
            raise ApiError(422, "Invalid", message) from None
    return doc


def remove_unowned(current: Any, previous: Any, applied: Any) -> Any:
    """Drop fields a manager set in its previous apply but no longer applies (server-side apply)."""
    if not (isinstance(current, dict) and isinstance(previous, dict)):
        return current
    applied = applied if isinstance(applied, dict) else {}
    result = dict(current)
    for key, old in previous.items():
        if key not in applied:
            result.pop(key, None)
        elif key in result:
            result[key] = remove_unowned(result[key], old, applied[key])
    return result
