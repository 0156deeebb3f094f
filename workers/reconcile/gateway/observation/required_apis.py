"""Which of the cluster's optional APIs a gateway's values need, and which of those are missing (pure); the APIs
themselves are the one table in ``controlplane.capabilities``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controlplane.capabilities import needed_apis
from controlplane.values_tree import deep_merge

__all__ = ["missing_apis"]


def missing_apis(values: Mapping[str, Any], defaults: Mapping[str, Any], capabilities: Mapping[str, bool]) -> list[str]:
    """What the values need that the cluster does not serve. A capability never probed counts as served."""
    return [api.label for api in needed_apis(deep_merge(defaults, values)) if capabilities.get(api.capability) is False]
