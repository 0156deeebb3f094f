"""Helm values as nested maps: the one merge and the one path lookup every layer uses (pure; no Django)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["deep_merge", "value_at"]


def deep_merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` overlaid with ``over``, as a new dict: maps merge key by key (as Helm coalesces values); anything else
    in ``over`` (scalars, lists) replaces ``base``'s whole."""
    merged: dict[str, Any] = dict(base)
    for key, value in over.items():
        below = merged.get(key)
        if isinstance(value, Mapping) and isinstance(below, Mapping):
            merged[key] = deep_merge(below, value)
        else:
            merged[key] = value
    return merged


def value_at(tree: Any, path: Iterable[str]) -> Any:
    """What ``tree``'s nested maps hold at ``path`` (one key a step); None when a step is missing or not a map."""
    node = tree
    for key in path:
        node = node.get(key) if isinstance(node, Mapping) else None
    return node
