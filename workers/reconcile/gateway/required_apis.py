"""Which of the cluster's optional APIs a gateway's values need, and which of those are missing (pure)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controlplane.capabilities import CAPABILITIES

__all__ = ["missing_apis"]

# capability -> the values key that, when true (in the values, else in the chart's defaults), needs it
NEEDED_BY: dict[str, tuple[str, ...]] = {
    "agent_sandbox": ("agentSandbox", "preflight", "enabled"),
    "grpc_route": ("grpcRoute", "enabled"),
    # TLS from the route's proxy to the gateway pod (see backend_tls_objects).
    "backend_tls_policy": ("grpcRoute", "enabled"),
    "openshift_route": ("openshiftRoute", "enabled"),
    "cert_manager": ("certManager", "enabled"),
}


def _lookup(values: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    for key in path:
        if not isinstance(values, Mapping) or key not in values:
            return None
        values = values[key]
    return values


def missing_apis(
    values: Mapping[str, Any], defaults: Mapping[str, Any], capabilities: Mapping[str, bool]
) -> list[str]:
    """What the values need that the cluster does not serve. A capability never probed counts as served."""
    missing = []
    for name, path in NEEDED_BY.items():
        wanted = _lookup(values, path)
        if wanted is None:
            wanted = _lookup(defaults, path)
        if wanted is True and capabilities.get(name) is False:
            missing.append(CAPABILITIES[name][0])
    return missing
