"""Compare JSON-like trees field by field, and two rendered manifests object by object (pure; no I/O)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

__all__ = ["FieldChange", "ObjectDiff", "ObjectKey", "field_changes", "format_path", "manifest_diff", "parse_manifest"]

ADDED, REMOVED, CHANGED = "added", "removed", "changed"
HOOK_ANNOTATION = "helm.sh/hook"
_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")

Path = tuple[str | int, ...]
ObjectKey = tuple[str, str, str, str]  # apiVersion, kind, namespace, name


def format_path(path: Path) -> str:
    """``("spec", "containers", 0, "image")`` -> ``spec.containers[0].image``; other keys are quoted: ``["a.b/c"]``."""
    text = ""
    for segment in path:
        if isinstance(segment, int):
            text += f"[{segment}]"
        elif _PLAIN_KEY.match(segment):
            text += f".{segment}" if text else segment
        else:
            text += f'["{segment}"]'
    return text


@dataclass(frozen=True)
class FieldChange:
    path: Path
    change: str  # added, removed or changed
    before: Any = None
    after: Any = None

    def as_dict(self) -> dict[str, Any]:
        return {"path": format_path(self.path), "change": self.change, "before": self.before, "after": self.after}


def field_changes(before: Any, after: Any, path: Path = ()) -> list[FieldChange]:
    """Every leaf that differs between two trees: maps by key (a one-sided map by its leaves), lists by index."""
    if isinstance(before, Mapping) and isinstance(after, Mapping):
        changes: list[FieldChange] = []
        for key in sorted(set(before) | set(after), key=str):
            if key not in after:
                changes += _one_sided(before[key], (*path, key), REMOVED)
            elif key not in before:
                changes += _one_sided(after[key], (*path, key), ADDED)
            else:
                changes += field_changes(before[key], after[key], (*path, key))
        return changes
    if isinstance(before, list) and isinstance(after, list):
        changes = []
        for index in range(max(len(before), len(after))):
            if index >= len(after):
                changes.append(FieldChange((*path, index), REMOVED, before=before[index]))
            elif index >= len(before):
                changes.append(FieldChange((*path, index), ADDED, after=after[index]))
            else:
                changes += field_changes(before[index], after[index], (*path, index))
        return changes
    return [] if before == after else [FieldChange(path, CHANGED, before=before, after=after)]


def _one_sided(value: Any, path: Path, change: str) -> list[FieldChange]:
    """A field only one side has; a non-empty map is reported by its leaves."""
    if isinstance(value, Mapping) and value:
        return field_changes({}, value, path) if change == ADDED else field_changes(value, {}, path)
    return [FieldChange(path, change, after=value) if change == ADDED else FieldChange(path, change, before=value)]


def parse_manifest(text: str) -> dict[ObjectKey, dict[str, Any]]:
    """The objects of a multi-document manifest, by key; Helm hooks are left out (a release's manifest has none).

    Raises ``yaml.YAMLError`` on a document that is not YAML.
    """
    objects: dict[ObjectKey, dict[str, Any]] = {}
    for document in yaml.safe_load_all(text or ""):
        if not isinstance(document, dict) or not document.get("kind"):
            continue
        meta = document.get("metadata") or {}
        if HOOK_ANNOTATION in (meta.get("annotations") or {}):
            continue
        key = (
            str(document.get("apiVersion", "")),
            str(document["kind"]),
            str(meta.get("namespace") or ""),
            str(meta.get("name", "")),
        )
        objects[key] = document
    return objects


@dataclass(frozen=True)
class ObjectDiff:
    key: ObjectKey
    change: str  # added, removed or changed
    fields: list[FieldChange] = field(default_factory=list)
    unified: str = ""

    def as_dict(self) -> dict[str, Any]:
        api_version, kind, namespace, name = self.key
        return {
            "api_version": api_version,
            "kind": kind,
            "namespace": namespace,
            "name": name,
            "change": self.change,
            "fields": [change.as_dict() for change in self.fields],
            "diff": self.unified,
        }


def _yaml_lines(obj: dict[str, Any] | None) -> list[str]:
    if obj is None:
        return []
    return yaml.safe_dump(obj, sort_keys=True, default_flow_style=False).splitlines(keepends=True)


def _unified(key: ObjectKey, before: dict[str, Any] | None, after: dict[str, Any] | None) -> str:
    label = "/".join(part for part in key if part)
    lines = difflib.unified_diff(_yaml_lines(before), _yaml_lines(after), f"deployed/{label}", f"desired/{label}", n=3)
    return "".join(lines)


def manifest_diff(
    deployed: Mapping[ObjectKey, dict[str, Any]], desired: Mapping[ObjectKey, dict[str, Any]]
) -> tuple[list[ObjectDiff], int]:
    """The added, removed and changed objects (in key order), and how many are unchanged."""
    diffs: list[ObjectDiff] = []
    unchanged = 0
    for key in sorted(set(deployed) | set(desired)):
        before, after = deployed.get(key), desired.get(key)
        if before is None:
            diffs.append(ObjectDiff(key, ADDED, [], _unified(key, None, after)))
        elif after is None:
            diffs.append(ObjectDiff(key, REMOVED, [], _unified(key, before, None)))
        else:
            changes = field_changes(before, after)
            if changes:
                diffs.append(ObjectDiff(key, CHANGED, changes, _unified(key, before, after)))
            else:
                unchanged += 1
    return diffs, unchanged
