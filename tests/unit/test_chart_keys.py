"""gateways.chart_keys: every values key we set must exist in the chart's values; plus the real test chart."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
import yaml

from gateways.chart_keys import (
    UnknownValuesKeys,
    check_values_keys,
    defaults_from_yaml,
    join_path,
    leaf_paths,
    unknown_keys,
)
from gateways.values import ClusterFacts, GatewaySpec, RoutingConfig, gateway_values
from tests.paths import MIRROR_CHART

HEX = "ab" * 32

DEFAULTS: dict[str, Any] = {
    "image": {"repository": "r", "tag": "t"},
    "server": {"externalDbSecret": "", "oidc": {"issuer": "", "caConfigMapName": ""}},
    "grpcRoute": {"enabled": False, "hostnames": [], "gateway": {"name": "", "namespace": ""}},
    "openshiftRoute": {"enabled": False, "annotations": {}},
    "nullable": None,
    "count": 1,
}


# ---------------------------------------------------------------- leaf_paths


@pytest.mark.parametrize(
    ("values", "paths"),
    [
        ({}, set()),
        ({"a": 1}, {"a"}),
        ({"a": {"b": 1, "c": {"d": "x"}}}, {"a.b", "a.c.d"}),
        ({"a": {"b": []}, "e": [1, {"f": 2}]}, {"a.b", "e"}),
        ({"a": {}}, {"a"}),
        ({"a": None}, {"a"}),
        ({"ann": {"haproxy.router.openshift.io/timeout": "5m"}}, {r"ann.haproxy\.router\.openshift\.io/timeout"}),
        ({"w\\x": 1}, {"w\\\\x"}),
    ],
)
def test_leaf_paths(values: dict[str, Any], paths: set[str]) -> None:
    assert leaf_paths(values) == paths


def test_join_path_escapes_dots_like_helm_set() -> None:
    assert join_path("", "a") == "a"
    assert join_path("a", "b.c") == r"a.b\.c"
    assert join_path("a", 1) == "a.1"


# ---------------------------------------------------------------- unknown_keys


@pytest.mark.parametrize(
    ("values", "bad"),
    [
        ({}, []),
        ({"image": {"repository": "x", "tag": "y"}}, []),
        ({"image": {"repo": "x"}}, ["image.repo"]),
        ({"imag": {"repository": "x"}}, ["imag"]),  # the shallowest unknown key is reported once
        ({"server": {"oidc": {"issuer": "i", "rolesClaim": "r"}}}, ["server.oidc.rolesClaim"]),
        ({"server": {"externalDbSecret": "s", "trustedCa": "c"}}, ["server.trustedCa"]),
        # an empty map default is free-form (annotations), at any depth
        ({"openshiftRoute": {"annotations": {"a.b/c": "1", "d": {"e": "f"}}}}, []),
        # lists are leaves; a list value may replace a list default
        ({"grpcRoute": {"hostnames": ["a", "b"]}}, []),
        # a map below a list, scalar or null default has no keys to match
        ({"grpcRoute": {"hostnames": {"first": "a"}}}, ["grpcRoute.hostnames.first"]),
        ({"count": {"min": 1, "max": 2}}, ["count.max", "count.min"]),
        ({"nullable": {"x": 1}}, ["nullable.x"]),
        # an empty map, or a scalar, where the default is a scalar or null: the key exists
        ({"count": {}}, []),
        ({"nullable": "x", "count": 3}, []),
        # a scalar or list replacing a structured (non-empty) map default is reported
        ({"grpcRoute": {"gateway": "public"}}, ["grpcRoute.gateway"]),
        ({"image": ["x"]}, ["image"]),
        # null deletes a default in Helm; allowed where the key exists
        ({"grpcRoute": {"gateway": None}}, []),
        ({"bogus": None}, ["bogus"]),
        # several problems are all listed, sorted
        ({"z": 1, "image": {"x": 1, "tag": "t"}, "a": {"b": 1}}, ["a", "image.x", "z"]),
        # dotted keys are escaped in the report
        ({"server": {"oidc.issuer": "i"}}, [r"server.oidc\.issuer"]),
    ],
)
def test_unknown_keys(values: dict[str, Any], bad: list[str]) -> None:
    assert unknown_keys(values, DEFAULTS) == bad


def test_unknown_keys_against_empty_or_missing_defaults() -> None:
    assert unknown_keys({"a": 1, "b": {"c": 1}}, {}) == ["a", "b"]
    assert unknown_keys({"a": 1}, None) == ["a"]
    assert unknown_keys({}, None) == []


def test_check_values_keys_raises_listing_every_bad_path() -> None:
    check_values_keys({"image": {"tag": "x"}}, DEFAULTS)
    with pytest.raises(UnknownValuesKeys) as excinfo:
        check_values_keys({"image": {"tagg": "x"}, "grpcRoute": {"hostname": "h"}}, DEFAULTS)
    assert excinfo.value.paths == ["grpcRoute.hostname", "image.tagg"]
    assert "grpcRoute.hostname, image.tagg" in str(excinfo.value)
    assert isinstance(excinfo.value, ValueError)


def test_defaults_from_yaml() -> None:
    assert defaults_from_yaml("a:\n  b: 1\n") == {"a": {"b": 1}}
    assert defaults_from_yaml("") == {}
    assert defaults_from_yaml("# only comments\n") == {}
    with pytest.raises(ValueError, match="YAML map"):
        defaults_from_yaml("- a\n")


# ---------------------------------------------------------------- the mapping against the test chart


def chart_defaults() -> dict[str, Any]:
    return yaml.safe_load((MIRROR_CHART / "values.yaml").read_text())


MAXIMAL_SPEC = GatewaySpec(
    namespace="gw-max-12345678",
    release="max",
    image=f"registry.example.com:5000/openshell/gateway:1.2.3@sha256:{HEX}",
    supervisor_image="registry.example.com:5000/openshell/supervisor",
    route_enabled=True,
    route_host="gw.tenant.example.org",
    oidc_issuer="https://id.example.com",
    oidc_audience="openshell",
    oidc_roles_claim="groups",
    oidc_admin_role="admins",
    oidc_user_role="users",
    oidc_ca_configmap="idp-ca",
    has_external_db=True,
)
MAXIMAL_ROUTING = RoutingConfig(
    gateway_name="public",
    gateway_namespace="gateway-system",
    issuer_name="corp-ca",
    issuer_kind="Issuer",
    route_annotations={"haproxy.router.openshift.io/timeout": "5m"},
)
FLAVOUR_CLUSTERS = {
    "kubernetes": ClusterFacts("kubernetes", "apps.east.example.com", True, True, agent_sandbox_preflight=False),
    "openshift": ClusterFacts("openshift", "apps.ocp.example.com", False, True, agent_sandbox_preflight=True),
}


@pytest.mark.parametrize("flavour", sorted(FLAVOUR_CLUSTERS))
@pytest.mark.parametrize("route_enabled", [True, False])
def test_maximal_values_use_only_keys_of_the_test_chart(flavour: str, route_enabled: bool) -> None:
    spec = replace(MAXIMAL_SPEC, route_enabled=route_enabled, route_host="gw.tenant.example.org" * route_enabled)
    values = gateway_values(spec, FLAVOUR_CLUSTERS[flavour], MAXIMAL_ROUTING)
    check_values_keys(values, chart_defaults())


def test_maximal_values_cover_the_chart_interface() -> None:
    """Between them, the flavours set every key of the interface the mapping is meant to drive,
    so a key renamed in the chart (or in values.py) fails the check above or this one."""
    covered: set[str] = set()
    for cluster in FLAVOUR_CLUSTERS.values():
        covered |= leaf_paths(gateway_values(MAXIMAL_SPEC, cluster, MAXIMAL_ROUTING))
    defaults = leaf_paths(chart_defaults())
    not_driven = {
        "image.pullPolicy",
        "openshiftRoute.annotations",
        "securityContext.runAsNonRoot",
        "securityContext.allowPrivilegeEscalation",
        "securityContext.capabilities.drop",
    }
    # The chart's own TLS bootstrap (the certgen hook and its Secret names), left at upstream's defaults.
    not_driven |= {
        "server.disableTls",
        "server.tls.certSecretName",
        "server.tls.clientTlsSecretName",
        "pkiInitJob.enabled",
    }
    assert defaults - covered == not_driven
    annotation = r"openshiftRoute.annotations.haproxy\.router\.openshift\.io/timeout"
    assert covered - defaults == {annotation}  # below the free-form annotations map


def test_the_chart_schema_covers_exactly_the_default_keys() -> None:
    """values.schema.json declares every key of values.yaml, rejects unknown keys at every object level
    (except the free-form annotations), and vice versa."""
    schema = json.loads((MIRROR_CHART / "values.schema.json").read_text())

    def resolve(node: dict[str, Any]) -> dict[str, Any]:
        ref = node.get("$ref")
        if ref:
            target: Any = schema
            for part in ref.removeprefix("#/").split("/"):
                target = target[part]
            return resolve(target)
        return node

    def schema_paths(node: dict[str, Any], prefix: str) -> set[str]:
        node = resolve(node)
        if node.get("type") != "object" or "properties" not in node:
            return {prefix}
        assert node.get("additionalProperties") is False, f"{prefix or 'top level'} accepts unknown keys"
        paths: set[str] = set()
        for key, child in node["properties"].items():
            paths |= schema_paths(child, join_path(prefix, key))
        return paths

    assert schema_paths(schema, "") == leaf_paths(chart_defaults())


def test_a_renamed_chart_key_fails_the_check() -> None:
    defaults = chart_defaults()
    defaults["grpcRoute"]["hostName"] = defaults["grpcRoute"].pop("hostnames")
    defaults["server"]["oidc"].pop("caConfigMapName")
    values = gateway_values(MAXIMAL_SPEC, FLAVOUR_CLUSTERS["kubernetes"], MAXIMAL_ROUTING)
    with pytest.raises(UnknownValuesKeys) as excinfo:
        check_values_keys(values, defaults)
    assert excinfo.value.paths == ["grpcRoute.hostnames", "server.oidc.caConfigMapName"]
