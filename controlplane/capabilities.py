"""Which optional APIs a managed cluster serves, read from API discovery (pure; no I/O).

The probe stores ``capabilities_from(served group/versions)`` on the cluster; an empty mapping
means the cluster has not been probed since this was recorded.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["CAPABILITIES", "PROBED_RESOURCES", "capabilities_from"]

# name -> (what it is, the group/versions of which any one served counts)
CAPABILITIES: dict[str, tuple[str, tuple[str, ...]]] = {
    "agent_sandbox": ("Agent Sandbox (agents.x-k8s.io)", ("agents.x-k8s.io/v1beta1", "agents.x-k8s.io/v1alpha1")),
    "grpc_route": ("GRPCRoute (gateway.networking.k8s.io/v1)", ("gateway.networking.k8s.io/v1",)),
    "openshift_route": ("OpenShift Route (route.openshift.io/v1)", ("route.openshift.io/v1",)),
    "cert_manager": ("cert-manager (cert-manager.io/v1)", ("cert-manager.io/v1",)),
    # A resource, not a group/version: gateway.networking.k8s.io/v1 is served without it on older clusters.
    "backend_tls_policy": (
        "BackendTLSPolicy (gateway.networking.k8s.io)",
        tuple(f"gateway.networking.k8s.io/{version}/backendtlspolicies" for version in ("v1", "v1alpha3")),
    ),
}
# Resources probed one by one (group, plural): discovery lists them as ``<group>/<version>/<plural>``.
PROBED_RESOURCES = (("gateway.networking.k8s.io", "backendtlspolicies"),)


def capabilities_from(served: Iterable[str]) -> dict[str, bool]:
    """Each capability: whether the cluster serves one of its group/versions."""
    served = set(served)
    return {name: any(version in served for version in versions) for name, (_, versions) in CAPABILITIES.items()}
