"""Label selectors, parsed from their query-string syntax (field selectors: ``devcluster.field_selectors``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from devcluster.errors import bad_request

Matcher = Callable[[dict[str, Any]], bool]

_SET_EXPR = re.compile(r"^\s*(!?)\s*([A-Za-z0-9_./-]+)\s*(?:(notin|in)\s*\(([^)]*)\))?\s*$")
_EQUALITY = re.compile(r"^\s*([A-Za-z0-9_./-]+)\s*(==|=|!=)\s*([A-Za-z0-9_.-]*)\s*$")


def _split_requirements(selector: str) -> list[str]:
    """Split on commas that are not inside an `in (...)` value list."""
    parts, depth, current = [], 0, ""
    for char in selector:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return [part for part in parts if part.strip()]


def _label_requirement(text: str) -> Callable[[dict[str, str]], bool]:
    equality = _EQUALITY.match(text)
    if equality:
        key, op, value = equality.groups()
        if op == "!=":
            return lambda labels: labels.get(key) != value
        return lambda labels: labels.get(key) == value
    expr = _SET_EXPR.match(text)
    if not expr:
        raise bad_request(f"unable to parse requirement: {text!r}")
    negated, key, op, values_text = expr.groups()
    if op:
        if negated:
            raise bad_request(f"unable to parse requirement: {text!r}")
        values = {v.strip() for v in values_text.split(",") if v.strip()}
        if op == "in":
            return lambda labels: labels.get(key) in values
        return lambda labels: labels.get(key) not in values
    if negated:
        return lambda labels: key not in labels
    return lambda labels: key in labels


def label_matcher(selector: str | None) -> Matcher:
    """A predicate over objects for a label selector like `a=b,c in (d,e),!f`."""
    requirements = [_label_requirement(part) for part in _split_requirements(selector or "")]

    def matches(obj: dict[str, Any]) -> bool:
        labels = obj.get("metadata", {}).get("labels") or {}
        return all(requirement(labels) for requirement in requirements)

    return matches
