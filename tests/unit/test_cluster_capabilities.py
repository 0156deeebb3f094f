"""The capability matrix from API discovery, and which capabilities a gateway's values need."""

from __future__ import annotations

import pytest

from controlplane.capabilities import capabilities_from
from workers.reconcile.gateway.required_apis import missing_apis

DEFAULTS = {"agentSandbox": {"preflight": {"enabled": True}}, "grpcRoute": {"enabled": False},
            "openshiftRoute": {"enabled": False}, "certManager": {"enabled": False}}
NOTHING = {
    "agent_sandbox": False, "grpc_route": False, "openshift_route": False, "cert_manager": False,
    "backend_tls_policy": False,
}


@pytest.mark.parametrize(
    ("served", "expected"),
    [
        ({"v1", "apps/v1"}, NOTHING),
        ({"agents.x-k8s.io/v1alpha1"}, NOTHING | {"agent_sandbox": True}),
        ({"agents.x-k8s.io/v1beta1", "cert-manager.io/v1"}, NOTHING | {"agent_sandbox": True, "cert_manager": True}),
        ({"gateway.networking.k8s.io/v1beta1"}, NOTHING),
        ({"gateway.networking.k8s.io/v1", "route.openshift.io/v1"},
         NOTHING | {"grpc_route": True, "openshift_route": True}),
        # BackendTLSPolicy is a resource of a group/version that older clusters serve without it.
        ({"gateway.networking.k8s.io/v1", "gateway.networking.k8s.io/v1alpha3/backendtlspolicies"},
         NOTHING | {"grpc_route": True, "backend_tls_policy": True}),
    ],
)
def test_capabilities_from_discovery(served, expected) -> None:
    assert capabilities_from(served) == expected


@pytest.mark.parametrize(
    ("values", "capabilities", "missing"),
    [
        ({}, NOTHING, ["Agent Sandbox (agents.x-k8s.io)"]),  # the chart's default preflight needs it
        ({"agentSandbox": {"preflight": {"enabled": False}}}, NOTHING, []),
        ({}, {}, []),  # never probed: helm gives the answer
        ({"grpcRoute": {"enabled": True}}, NOTHING | {"agent_sandbox": True},
         ["GRPCRoute (gateway.networking.k8s.io/v1)", "BackendTLSPolicy (gateway.networking.k8s.io)"]),
        ({"grpcRoute": {"enabled": True}}, NOTHING | {"agent_sandbox": True, "grpc_route": True},
         ["BackendTLSPolicy (gateway.networking.k8s.io)"]),
        ({"openshiftRoute": {"enabled": True}, "certManager": {"enabled": True}}, NOTHING | {"agent_sandbox": True},
         ["OpenShift Route (route.openshift.io/v1)", "cert-manager (cert-manager.io/v1)"]),
        ({"openshiftRoute": {"enabled": True}, "certManager": {"enabled": True}},
         {"agent_sandbox": True, "openshift_route": True, "cert_manager": True}, []),
    ],
)
def test_missing_apis(values, capabilities, missing) -> None:
    assert missing_apis(values, DEFAULTS, capabilities) == missing
