"""The capability matrix from API discovery, and which capabilities a gateway's values need."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from controlplane.capabilities import capabilities_from
from controlplane.values_tree import deep_merge
from workers.reconcile.gateway.observation.required_apis import missing_apis
from workers.reconcile.gateway.plan.checks import ClusterObjects, prerequisite_checks
from workers.reconcile.gateway.request import GatewayRequest, Prerequisites, Timing
from workers.reconcile.retry import RetryPolicy

DEFAULTS = {
    "agentSandbox": {"preflight": {"enabled": True}},
    "grpcRoute": {"enabled": False},
    "openshiftRoute": {"enabled": False},
    "certManager": {"enabled": False},
}
NOTHING = {
    "agent_sandbox": False,
    "grpc_route": False,
    "openshift_route": False,
    "cert_manager": False,
    "backend_tls_policy": False,
}


@pytest.mark.parametrize(
    ("served", "expected"),
    [
        ({"v1", "apps/v1"}, NOTHING),
        ({"agents.x-k8s.io/v1alpha1"}, NOTHING | {"agent_sandbox": True}),
        ({"agents.x-k8s.io/v1beta1", "cert-manager.io/v1"}, NOTHING | {"agent_sandbox": True, "cert_manager": True}),
        ({"gateway.networking.k8s.io/v1beta1"}, NOTHING),
        (
            {"gateway.networking.k8s.io/v1", "route.openshift.io/v1"},
            NOTHING | {"grpc_route": True, "openshift_route": True},
        ),
        # BackendTLSPolicy is a resource of a group/version that older clusters serve without it.
        (
            {"gateway.networking.k8s.io/v1", "gateway.networking.k8s.io/v1alpha3/backendtlspolicies"},
            NOTHING | {"grpc_route": True, "backend_tls_policy": True},
        ),
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
        (
            {"grpcRoute": {"enabled": True}},
            NOTHING | {"agent_sandbox": True},
            ["GRPCRoute (gateway.networking.k8s.io/v1)", "BackendTLSPolicy (gateway.networking.k8s.io)"],
        ),
        (
            {"grpcRoute": {"enabled": True}},
            NOTHING | {"agent_sandbox": True, "grpc_route": True},
            ["BackendTLSPolicy (gateway.networking.k8s.io)"],
        ),
        (
            {"openshiftRoute": {"enabled": True}, "certManager": {"enabled": True}},
            NOTHING | {"agent_sandbox": True},
            ["OpenShift Route (route.openshift.io/v1)", "cert-manager (cert-manager.io/v1)"],
        ),
        (
            {"openshiftRoute": {"enabled": True}, "certManager": {"enabled": True}},
            {"agent_sandbox": True, "openshift_route": True, "cert_manager": True},
            [],
        ),
    ],
)
def test_missing_apis(values, capabilities, missing) -> None:
    assert missing_apis(values, DEFAULTS, capabilities) == missing


@pytest.mark.parametrize(
    "served",
    [
        {"v1", "agents.x-k8s.io/v1beta1"},
        {"v1", "agents.x-k8s.io/v1alpha1"},
        {"v1"},
        {"v1", "gateway.networking.k8s.io/v1"},  # GRPCRoute without BackendTLSPolicy
        {"v1", "gateway.networking.k8s.io/v1", "gateway.networking.k8s.io/v1/backendtlspolicies"},
    ],
)
@pytest.mark.parametrize("values", [{}, {"grpcRoute": {"enabled": True}}])
def test_plan_and_reconciler_give_one_answer(served, values) -> None:
    """The plan reads discovery, the reconciler the probe's capabilities; both read one table."""
    request = GatewayRequest(
        gateway_id="g",
        generation=1,
        namespace="gw-edge",
        release="edge",
        namespace_labels={},
        prerequisites=Prerequisites(
            db_secret_name="s", db_uri=None, trusted_ca=None, scc_binding=False, sandbox_service_account="sa"
        ),
        values=values,
        values_error=None,
        route_host=None,
        deleting=False,
        suspended=False,
        failure_count=0,
        next_attempt_at=None,
        was_running=False,
        now=datetime(2026, 1, 1, tzinfo=UTC),
        timing=Timing(RetryPolicy(), timedelta(minutes=5), timedelta(minutes=5), timedelta(seconds=5)),
    )
    group_versions = frozenset(api for api in served if api.count("/") < 2)
    cluster = ClusterObjects(
        served_apis=group_versions, served_resources=frozenset(served - group_versions), namespace_phase=None
    )
    checks = prerequisite_checks(request, deep_merge(DEFAULTS, values), cluster, ca_configmap="ca", scc_binding="scc")
    plan_missing = [check.name.removeprefix("API ") for check in checks if check.blocking]
    assert plan_missing == missing_apis(values, DEFAULTS, capabilities_from(served))


def test_a_v1beta1_only_agent_sandbox_is_served_for_plan_and_reconciler() -> None:
    served = {"v1", "agents.x-k8s.io/v1beta1"}
    assert missing_apis({}, DEFAULTS, capabilities_from(served)) == []
    assert capabilities_from(served)["agent_sandbox"] is True
