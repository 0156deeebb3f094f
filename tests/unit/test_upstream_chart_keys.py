"""Every key path our values mapping can set exists in the upstream chart's values.yaml, with the same type.

The maximal spec of the worker's start-up check (`workers.startup`) over both cluster shapes, with and
without a route and the preflight switch, drives every key the mapping knows. The checker is shown to fail
on a key upstream lacks and on a value of the wrong type.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from controlplane.values_tree import value_at
from gateways.chart_keys import check_values_keys, defaults_from_yaml, leaf_paths, type_mismatches, unknown_keys
from gateways.values import ClusterFacts, RoutingConfig, gateway_values
from tests.fixtures.charts import MIRROR_CHART, require_upstream_chart
from workers.startup import MAXIMAL_SPEC, cluster_shapes

ROUTING = RoutingConfig(
    gateway_name="public",
    gateway_namespace="gateway-system",
    issuer_name="corp-ca",
    issuer_kind="Issuer",
    route_annotations={"haproxy.router.openshift.io/timeout": "5m"},
)


@pytest.fixture(scope="module")
def upstream_defaults() -> dict[str, Any]:
    return defaults_from_yaml((require_upstream_chart() / "values.yaml").read_text())


def all_values() -> list[dict[str, Any]]:
    """The values for every combination that changes which keys the mapping sets."""
    combos = []
    for facts in cluster_shapes():
        for route in (True, False):
            for preflight in (None, True, False):
                spec = replace(MAXIMAL_SPEC, route_enabled=route, route_host=MAXIMAL_SPEC.route_host * route)
                combos.append(gateway_values(spec, replace(facts, agent_sandbox_preflight=preflight), ROUTING))
    return combos


def test_every_key_the_mapping_sets_exists_upstream_with_the_same_type(upstream_defaults: dict[str, Any]) -> None:
    for values in all_values():
        check_values_keys(values, upstream_defaults)
        assert type_mismatches(values, upstream_defaults) == []


def test_the_combinations_cover_every_key_of_the_interface(upstream_defaults: dict[str, Any]) -> None:
    """So a key the mapping sets only in some case is still checked above."""
    covered = set().union(*(leaf_paths(values) for values in all_values()))
    assert covered == {
        "image.repository",
        "image.tag",
        "supervisor.image.repository",
        "supervisor.image.tag",
        "server.externalDbSecret",
        "server.oidc.issuer",
        "server.oidc.audience",
        "server.oidc.rolesClaim",
        "server.oidc.adminRole",
        "server.oidc.userRole",
        "server.oidc.caConfigMapName",
        "grpcRoute.enabled",
        "grpcRoute.hostnames",
        "grpcRoute.gateway.name",
        "grpcRoute.gateway.namespace",
        "openshiftRoute.enabled",
        "openshiftRoute.host",
        r"openshiftRoute.annotations.haproxy\.router\.openshift\.io/timeout",
        "certManager.enabled",
        "certManager.serverIssuerRef.name",
        "certManager.serverIssuerRef.kind",
        "certManager.serverDnsNames",
        "agentSandbox.preflight.enabled",
        "podSecurityContext.fsGroup",
        "securityContext.runAsUser",
        "networkPolicy.enabled",
    }
    # None of them has a null default upstream (a null would leave the type to the templates).
    nulls = [path for path in leaf_paths(upstream_defaults) if value_at(upstream_defaults, path.split(".")) is None]
    assert not covered & set(nulls)


def test_the_invented_trusted_ca_key_is_gone_and_would_be_caught(upstream_defaults: dict[str, Any]) -> None:
    kubernetes = next(f for f in cluster_shapes() if f.flavour == "kubernetes")
    values = gateway_values(MAXIMAL_SPEC, kubernetes, ROUTING)
    assert "trustedCaConfigMapName" not in values["server"]
    values["server"]["trustedCaConfigMapName"] = "gateway-trusted-ca"
    assert unknown_keys(values, upstream_defaults) == ["server.trustedCaConfigMapName"]


@pytest.mark.parametrize(
    ("patch", "problem"),
    [
        ({"grpcRoute": {"enabled": "true"}}, "grpcRoute.enabled: the chart has bool, the values set string"),
        ({"grpcRoute": {"hostnames": "h.example"}}, "grpcRoute.hostnames: the chart has list, the values set string"),
        ({"image": {"tag": 1}}, "image.tag: the chart has string, the values set number"),
        ({"replicaCount": True}, "replicaCount: the chart has number, the values set bool"),
        (
            {"certManager": {"serverIssuerRef": ["x"]}},
            "certManager.serverIssuerRef: the chart has map, the values set list",
        ),
        (
            {"server": {"oidc": {"caConfigMapName": {"name": "x"}}}},
            "server.oidc.caConfigMapName: the chart has string, the values set map",
        ),
    ],
)
def test_the_type_check_fails_on_a_wrong_type(upstream_defaults: dict[str, Any], patch: dict, problem: str) -> None:
    assert type_mismatches(patch, upstream_defaults) == [problem]


def test_free_form_maps_and_null_deletes_pass_but_a_null_default_is_reported() -> None:
    defaults = {"annotations": {}, "sub": {"a": ""}, "unset": None}
    assert type_mismatches({"annotations": {"k": 1, "m": {"n": True}}, "sub": None, "unknown": 1}, defaults) == []
    assert type_mismatches({"unset": "x"}, defaults) == ["unset: the chart has null, the values set string"]


def test_the_mirror_chart_has_no_key_upstream_lacks(upstream_defaults: dict[str, Any]) -> None:
    mirror = defaults_from_yaml((MIRROR_CHART / "values.yaml").read_text())
    assert unknown_keys(mirror, upstream_defaults) == []
    assert type_mismatches(mirror, upstream_defaults) == []


def test_cluster_shapes_are_the_two_flavours() -> None:
    assert sorted((f.flavour, f.gateway_api) for f in cluster_shapes()) == [("kubernetes", True), ("openshift", False)]
    assert all(isinstance(f, ClusterFacts) and f.has_trusted_ca for f in cluster_shapes())
