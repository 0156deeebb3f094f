"""Which of the cluster's optional APIs a gateway's values need, and which of those are missing (pure); the APIs
themselves are the one table in ``controlplane.capabilities``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controlplane.capabilities import needed_apis

__all__ = ["effective_values", "missing_apis"]


def effective_values(defaults: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """The chart defaults overlaid with the values, maps merged key by key (as Helm coalesces them)."""
    merged = dict(defaults)
    for key, value in values.items():
        base = merged.get(key)
        if isinstance(base, Mapping) and isinstance(value, Mapping):
            merged[key] = effective_values(base, value)
        else:
            merged[key] = value
    return merged


def missing_apis(values: Mapping[str, Any], defaults: Mapping[str, Any], capabilities: Mapping[str, bool]) -> list[str]:
    """What the values need that the cluster does not serve. A capability never probed counts as served."""
    return [
        api.label
        for api in needed_apis(effective_values(defaults, values))
        if capabilities.get(api.capability) is False
    ]
