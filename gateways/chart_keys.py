"""Check that every values key we set exists in the chart's default values (pure).

Helm silently ignores values keys a chart never reads; a renamed or misspelt key then deploys a
gateway without the setting. So every key path the mapping sets must exist in the chart's default
values (the dict of `helm show values` / the chart's `values.yaml`).

Rules, for a key path set in `values`:

- the key must exist at that place in the defaults;
- a map value is checked key by key against a map default;
- an EMPTY map default (`annotations: {}`) is free-form: anything below it is accepted;
- a non-empty map value below a default that is not a map (a scalar, a list, or null) is unknown:
  the chart has no keys there, so each key below it is reported;
- a scalar or list value where the default is a non-empty map is reported too: it would replace
  the chart's whole sub-tree, which is never what a values key means (null, Helm's way to
  delete a default, is allowed anywhere the key exists);
- lists are leaves: their items are not checked (`grpcRoute.hostnames: [..]`).

`type_mismatches` checks types too: every leaf set must have the kind of the chart's default (bool,
number, string, list or map). A null default has no type to compare with, so setting anything but
null there is reported: the chart's templates decide what it expects, and a test must say so.

Paths are dotted; a key that itself contains a dot or a backslash is escaped with a backslash,
as `helm --set` does (`openshiftRoute.annotations.haproxy\\.router\\.openshift\\.io/timeout`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import yaml

__all__ = [
    "UnknownValuesKeys",
    "check_values_keys",
    "defaults_from_yaml",
    "join_path",
    "leaf_paths",
    "type_mismatches",
    "unknown_keys",
]


class UnknownValuesKeys(ValueError):
    """Values set keys the chart does not have; `paths` lists each of them."""

    def __init__(self, paths: Iterable[str]) -> None:
        self.paths = sorted(paths)
        super().__init__("Values keys not in the chart's values: " + ", ".join(self.paths))


def join_path(prefix: str, key: Any) -> str:
    escaped = str(key).replace("\\", "\\\\").replace(".", "\\.")
    return f"{prefix}.{escaped}" if prefix else escaped


def leaf_paths(values: Mapping[str, Any], prefix: str = "") -> set[str]:
    """The dotted paths of every leaf: a scalar, a list, or an empty map."""
    paths: set[str] = set()
    for key, value in values.items():
        path = join_path(prefix, key)
        if isinstance(value, Mapping) and value:
            paths |= leaf_paths(value, path)
        else:
            paths.add(path)
    return paths


def unknown_keys(values: Mapping[str, Any], chart_defaults: Mapping[str, Any] | None) -> list[str]:
    """Sorted paths in `values` that the chart's defaults do not have (see the module doc for the rules)."""
    return sorted(_unknown(values, chart_defaults or {}, ""))


def check_values_keys(values: Mapping[str, Any], chart_defaults: Mapping[str, Any] | None) -> None:
    """Raise `UnknownValuesKeys` unless every key path in `values` exists in `chart_defaults`."""
    bad = unknown_keys(values, chart_defaults)
    if bad:
        raise UnknownValuesKeys(bad)


def defaults_from_yaml(text: str) -> dict[str, Any]:
    """Parse a chart's values.yaml (or `helm show values` output) into the defaults dict."""
    loaded = yaml.safe_load(text)
    if loaded is None:
        return {}
    if not isinstance(loaded, dict):
        raise ValueError("Chart values must be a YAML map at the top level.")
    return loaded


def _unknown(values: Mapping[str, Any], defaults: Mapping[str, Any], prefix: str) -> list[str]:
    bad: list[str] = []
    for key, value in values.items():
        path = join_path(prefix, key)
        if key not in defaults:
            bad.append(path)
            continue
        default = defaults[key]
        if isinstance(default, Mapping):
            if not default:
                continue  # free-form map, such as annotations
            if isinstance(value, Mapping):
                bad += _unknown(value, default, path)
            elif value is not None:  # null is Helm's way to delete a default
                bad.append(path)  # a scalar or list would replace the chart's sub-tree
        elif isinstance(value, Mapping) and value:
            bad += [join_path(path, child) for child in value]
    return bad


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, Mapping):
        return "map"
    if isinstance(value, list | tuple):
        return "list"
    return type(value).__name__


def type_mismatches(values: Mapping[str, Any], chart_defaults: Mapping[str, Any] | None, prefix: str = "") -> list[str]:
    """`path: the chart has <kind>, the values set <kind>` for each key set with another kind than its default.

    Keys the chart lacks are `unknown_keys`' business and skipped here; null values (Helm's delete) pass.
    """
    problems: list[str] = []
    defaults = chart_defaults or {}
    for key, value in values.items():
        path = join_path(prefix, key)
        if key not in defaults or value is None:
            continue
        default = defaults[key]
        if isinstance(default, Mapping) and isinstance(value, Mapping):
            if default:  # an empty default map is free-form
                problems += type_mismatches(value, default, path)
        elif _kind(default) != _kind(value):
            problems.append(f"{path}: the chart has {_kind(default)}, the values set {_kind(value)}")
    return sorted(problems)
