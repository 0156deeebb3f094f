"""The optional APIs a gateway may need from its cluster, in one table read by the plan, the reconciler and the
capability matrix (pure; no I/O).

The probe stores ``capabilities_from(served group/versions)`` on the cluster; an empty mapping
means the cluster has not been probed since this was recorded.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from controlplane.values_tree import value_at

__all__ = [
    "PROBED_RESOURCES",
    "REQUIRED_APIS",
    "Capability",
    "RequiredApi",
    "capabilities_from",
    "needed_apis",
]


class Capability(StrEnum):
    """The names under which a cluster's capabilities are stored (``ManagedCluster.capabilities``)."""

    AGENT_SANDBOX = "agent_sandbox"
    GRPC_ROUTE = "grpc_route"
    OPENSHIFT_ROUTE = "openshift_route"
    CERT_MANAGER = "cert_manager"
    BACKEND_TLS_POLICY = "backend_tls_policy"


@dataclass(frozen=True)
class RequiredApi:
    """An optional API: served when discovery lists any one of ``served_as``; needed when ``switch`` is true in the
    effective values (the chart defaults overlaid with the gateway's values, as Helm renders them)."""

    capability: Capability
    label: str
    served_as: tuple[str, ...]
    switch: tuple[str, ...]

    def served(self, served: Iterable[str]) -> bool:
        return not set(self.served_as).isdisjoint(served)

    @property
    def switch_name(self) -> str:
        return ".".join(self.switch)


REQUIRED_APIS: tuple[RequiredApi, ...] = (
    RequiredApi(
        Capability.AGENT_SANDBOX,
        "Agent Sandbox (agents.x-k8s.io)",
        ("agents.x-k8s.io/v1beta1", "agents.x-k8s.io/v1alpha1"),
        ("agentSandbox", "preflight", "enabled"),
    ),
    RequiredApi(
        Capability.GRPC_ROUTE,
        "GRPCRoute (gateway.networking.k8s.io/v1)",
        ("gateway.networking.k8s.io/v1",),
        ("grpcRoute", "enabled"),
    ),
    # A resource, not a group/version: gateway.networking.k8s.io/v1 is served without it on older clusters.
    # TLS from the route's proxy to the gateway pod needs it (see backend_tls_objects).
    RequiredApi(
        Capability.BACKEND_TLS_POLICY,
        "BackendTLSPolicy (gateway.networking.k8s.io)",
        tuple(f"gateway.networking.k8s.io/{version}/backendtlspolicies" for version in ("v1", "v1alpha3")),
        ("grpcRoute", "enabled"),
    ),
    RequiredApi(
        Capability.OPENSHIFT_ROUTE,
        "OpenShift Route (route.openshift.io/v1)",
        ("route.openshift.io/v1",),
        ("openshiftRoute", "enabled"),
    ),
    RequiredApi(
        Capability.CERT_MANAGER,
        "cert-manager (cert-manager.io/v1)",
        ("cert-manager.io/v1",),
        ("certManager", "enabled"),
    ),
)
# Resources probed one by one (group, plural): discovery lists them as ``<group>/<version>/<plural>``.
PROBED_RESOURCES = (("gateway.networking.k8s.io", "backendtlspolicies"),)


def capabilities_from(served: Iterable[str]) -> dict[str, bool]:
    """Each capability: whether the cluster serves one of its group/versions."""
    served = set(served)
    return {api.capability: api.served(served) for api in REQUIRED_APIS}


def needed_apis(values: Mapping[str, Any]) -> list[RequiredApi]:
    """The APIs the effective ``values`` need (a switch counts when Helm would take it as true)."""
    return [api for api in REQUIRED_APIS if value_at(values, api.switch)]
