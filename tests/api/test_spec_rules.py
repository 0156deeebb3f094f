"""Every rule the worker applies to a gateway spec (`gateways.spec_rules.SPEC_RULES`) is checked at the API first:
a spec that breaks one is a 400 naming the field, and nothing is stored. A row stored some other way (before the
rule existed) is stalled by the worker with the same message."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from controlplane.models import ManagedCluster
from gateways.chart_keys import defaults_from_yaml
from gateways.models import Gateway, GatewayRelease
from gateways.spec_rules import SPEC_RULES, RuleName
from gateways.values import TRUSTED_CA_CONFIGMAP
from tests.fixtures.charts import MIRROR_CHART
from workers.charts import Chart
from workers.reconcile.gateway.passes.loop import settled
from workers.reconcile.gateway.passes.request_from_rows import build_request

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
CHART = Chart(
    ref=str(MIRROR_CHART),
    version=None,
    chart_version="0.1.0",
    defaults=defaults_from_yaml((Path(MIRROR_CHART) / "values.yaml").read_text()),
)
GW, SV = "ghcr.io/nvidia/openshell/gateway:1.0.0", "ghcr.io/nvidia/openshell/supervisor:1.0.0"
# A base domain (stored some other way than the cluster API) with a label longer than DNS allows (63).
BAD_DOMAIN = "x" * 64 + ".example.com"
ISSUER = "https://id.example.com"


@dataclass(frozen=True)
class Case:
    body: dict[str, Any]  # the API body's spec, besides name and cluster
    api_field: str  # the field the 400 names
    row: dict[str, Any]  # the same spec as Gateway fields, stored without the API
    release_images: tuple[str, str] = (GW, SV)
    base_domain: str = "apps.east.example.com"
    # True: the rule's own message (False: the serializer's shape refuses it first, in its own words); a string:
    # a part of it (the rest names the new gateway's namespace, which the API picks)
    api_message: bool | str = True


CASES: dict[RuleName, Case] = {
    RuleName.GATEWAY_IMAGE: Case({"supervisor_image": SV}, "image", {"supervisor_image": SV}, release_images=("", "")),
    RuleName.SUPERVISOR_IMAGE: Case({"image": GW}, "supervisor_image", {"image": GW}, release_images=("", "")),
    RuleName.ROUTE_HOST: Case({}, "route.host", {}, base_domain=BAD_DOMAIN, api_message="is not a valid DNS name"),
    RuleName.OIDC_NEEDS_ISSUER: Case(
        {"oidc": {"audience": "openshell"}}, "oidc.issuer", {"oidc_audience": "openshell"}, api_message=False
    ),
    RuleName.OIDC_CA_RESERVED: Case(
        {"oidc": {"issuer": ISSUER, "ca_configmap": TRUSTED_CA_CONFIGMAP}},
        "oidc.ca_configmap",
        {"oidc_issuer": ISSUER, "oidc_ca_configmap": TRUSTED_CA_CONFIGMAP},
    ),
}
RULES = {rule.name: rule for rule in SPEC_RULES}


def test_every_rule_the_worker_applies_has_a_case_here() -> None:
    assert set(CASES) == set(RULES) == set(RuleName)


def _setup(case: Case) -> ManagedCluster:
    image, supervisor_image = case.release_images
    GatewayRelease.objects.create(
        name="v1", chart=str(MIRROR_CHART), image=image, supervisor_image=supervisor_image, default=True
    )
    return ManagedCluster.objects.create(name="east", kubeconfig="", base_domain=case.base_domain)


def _rule_message(case: Case, rule: RuleName, gateway: Gateway) -> str:
    message = gateway.spec_rule_problems().get(RULES[rule].field)
    assert message, f"the case does not break rule {rule}"
    return message


@pytest.mark.parametrize("rule", list(RuleName))
def test_the_api_refuses_a_spec_that_breaks_the_rule_and_stores_nothing(admin_api, rule: RuleName) -> None:
    case = CASES[rule]
    _setup(case)
    response = admin_api.post("/api/v1/gateways/", {"name": "edge", "cluster": "east", **case.body}, format="json")
    assert response.status_code == 400, response.content
    messages = response.json()["error"]["fields"].get(case.api_field)
    assert messages, response.content
    if isinstance(case.api_message, str):
        assert any(case.api_message in message for message in messages), response.content
    elif case.api_message:
        probe = Gateway(cluster=ManagedCluster.objects.get(), name="edge", **case.row)
        assert _rule_message(case, rule, probe) in messages
    assert not Gateway.objects.exists()


@pytest.mark.parametrize("rule", list(RuleName))
def test_the_worker_stalls_a_stored_gateway_that_breaks_the_rule_with_the_same_message(alice, rule: RuleName) -> None:
    case = CASES[rule]
    cluster = _setup(case)
    gateway = Gateway(owner=alice, cluster=cluster, name="edge", **case.row)
    gateway.assign_namespace()
    gateway.save()
    request = build_request(gateway, CHART, NOW)
    assert request.values_error is not None and _rule_message(case, rule, gateway) in request.values_error
    outcome = settled(request)
    assert outcome is not None and outcome.phase == "Failed"
