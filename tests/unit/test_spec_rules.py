"""The spec rules (`gateways.spec_rules`): each one, table-driven, as the API's model `clean` and the worker's
`check_spec` read them."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gateways.spec_rules import SPEC_RULES, RuleName, check_spec, spec_problems
from gateways.values import TRUSTED_CA_CONFIGMAP, ClusterFacts, GatewaySpec, ValuesError

SPEC = GatewaySpec(
    namespace="gw-alpha-1a2b3c4d",
    release="alpha",
    image="ghcr.io/example/gateway:1.0",
    supervisor_image="ghcr.io/example/supervisor:1.0",
)
K8S = ClusterFacts(flavour="kubernetes", base_domain="apps.east.example.com", gateway_api=True)
ISSUER = "https://id.test"

BROKEN: list[tuple[RuleName, dict[str, object], str]] = [
    (RuleName.GATEWAY_IMAGE, {"image": ""}, "No gateway image"),
    (RuleName.GATEWAY_IMAGE, {"image": "NOPE"}, "Invalid image reference 'NOPE'"),
    (RuleName.SUPERVISOR_IMAGE, {"supervisor_image": ""}, "No supervisor image"),
    (RuleName.SUPERVISOR_IMAGE, {"supervisor_image": "a b"}, "Invalid image reference"),
    (RuleName.ROUTE_HOST, {"route_host": "x" * 64 + ".example.com"}, "not a valid DNS name"),
    (RuleName.ROUTE_HOST, {"namespace": "gw-" + "n" * 70}, "not a valid DNS name"),
    (RuleName.OIDC_NEEDS_ISSUER, {"oidc_ca_configmap": "idp-ca"}, "need an issuer"),
    (RuleName.OIDC_NEEDS_ISSUER, {"oidc_audience": "x"}, "need an issuer"),
    (RuleName.OIDC_NEEDS_ISSUER, {"oidc_roles_claim": "groups"}, "need an issuer"),
    (RuleName.OIDC_NEEDS_ISSUER, {"oidc_admin_role": "a"}, "need an issuer"),
    (RuleName.OIDC_NEEDS_ISSUER, {"oidc_user_role": "u"}, "need an issuer"),
    (
        RuleName.OIDC_CA_RESERVED,
        {"oidc_issuer": ISSUER, "oidc_ca_configmap": TRUSTED_CA_CONFIGMAP},
        "control plane owns it",
    ),
]
FIELDS = {rule.name: rule.field for rule in SPEC_RULES}


def test_every_rule_has_a_broken_case() -> None:
    assert {rule for rule, _, _ in BROKEN} == set(RuleName) == set(FIELDS)


@pytest.mark.parametrize(("rule", "changes", "message"), BROKEN)
def test_a_broken_rule_names_its_field_and_the_worker_refuses_the_spec(
    rule: RuleName, changes: dict, message: str
) -> None:
    spec = replace(SPEC, **changes)
    problems = spec_problems(spec, K8S)
    assert list(problems) == [FIELDS[rule]] and message in problems[FIELDS[rule]]
    with pytest.raises(ValuesError, match=message.replace("'", ".")):
        check_spec(spec, K8S)


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"route_enabled": False, "namespace": "gw-" + "n" * 70},  # no route, no host to check
        {"route_host": "Edge.Apps.East.Example.com."},  # the mapping lowercases it and drops the root dot
        {"oidc_issuer": ISSUER, "oidc_audience": "a", "oidc_ca_configmap": "idp-ca"},
        {"image": "reg.example.com:5000/gw:1@sha256:" + "0" * 64},
    ],
)
def test_a_spec_that_follows_every_rule_has_no_problems(changes: dict) -> None:
    spec = replace(SPEC, **changes)
    assert spec_problems(spec, K8S) == {}
    check_spec(spec, K8S)


def test_every_broken_rule_is_reported_at_once() -> None:
    spec = replace(SPEC, image="", oidc_ca_configmap=TRUSTED_CA_CONFIGMAP)
    assert set(spec_problems(spec, K8S)) == {"image", "oidc_issuer", "oidc_ca_configmap"}
