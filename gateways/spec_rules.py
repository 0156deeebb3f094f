"""The rules a gateway spec must follow before it can be mapped to Helm values: one table, read by the API (the
model's ``clean``, so a 400 naming the field and nothing stored) and by the worker (``check_spec`` before
``gateways.values.gateway_values``, a ``Stalled InvalidValues`` for a row stored before a rule existed).

Each rule is pure: it takes the spec and the cluster's facts and returns its message, or None. What the rules do not
cover is not the spec's: the cluster's flavour and the worker's routing settings (``routing_problems``, checked at
worker start), and the chart's keys (every key the mapping can set is checked against a release's chart when the
release is created, with ``workers.startup.MAXIMAL_SPEC``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from gateways.values import (
    TRUSTED_CA_CONFIGMAP,
    ClusterFacts,
    GatewaySpec,
    ValuesError,
    image_problem,
    route_host,
)

__all__ = ["SPEC_RULES", "RuleName", "SpecRule", "check_spec", "spec_problems"]


class RuleName(StrEnum):
    GATEWAY_IMAGE = "GatewayImage"
    SUPERVISOR_IMAGE = "SupervisorImage"
    ROUTE_HOST = "RouteHost"
    OIDC_NEEDS_ISSUER = "OidcNeedsIssuer"
    OIDC_CA_RESERVED = "OidcCaReserved"


@dataclass(frozen=True)
class SpecRule:
    name: RuleName
    field: str  # the Gateway model field a refusal names
    check: Callable[[GatewaySpec, ClusterFacts], str | None]


def _gateway_image(spec: GatewaySpec, cluster: ClusterFacts) -> str | None:
    return image_problem(spec.image, "gateway image")


def _supervisor_image(spec: GatewaySpec, cluster: ClusterFacts) -> str | None:
    return image_problem(spec.supervisor_image, "supervisor image")


def _route_host(spec: GatewaySpec, cluster: ClusterFacts) -> str | None:
    """The route's host, explicit or `<namespace>.<base domain>`, must be a DNS name."""
    try:
        route_host(spec, cluster)
    except ValuesError as exc:
        return str(exc)
    return None


def _oidc_needs_issuer(spec: GatewaySpec, cluster: ClusterFacts) -> str | None:
    details = (
        spec.oidc_audience,
        spec.oidc_roles_claim,
        spec.oidc_admin_role,
        spec.oidc_user_role,
        spec.oidc_ca_configmap,
    )
    if any(details) and not spec.oidc_issuer:
        return "OIDC settings need an issuer; without one they would be silently ignored."
    return None


def _oidc_ca_reserved(spec: GatewaySpec, cluster: ClusterFacts) -> str | None:
    if spec.oidc_ca_configmap == TRUSTED_CA_CONFIGMAP:
        return f"The OIDC CA ConfigMap may not be {TRUSTED_CA_CONFIGMAP!r}: the control plane owns it."
    return None


SPEC_RULES: tuple[SpecRule, ...] = (
    SpecRule(RuleName.GATEWAY_IMAGE, "image", _gateway_image),
    SpecRule(RuleName.SUPERVISOR_IMAGE, "supervisor_image", _supervisor_image),
    SpecRule(RuleName.ROUTE_HOST, "route_host", _route_host),
    SpecRule(RuleName.OIDC_NEEDS_ISSUER, "oidc_issuer", _oidc_needs_issuer),
    SpecRule(RuleName.OIDC_CA_RESERVED, "oidc_ca_configmap", _oidc_ca_reserved),
)


def spec_problems(spec: GatewaySpec, cluster: ClusterFacts) -> dict[str, str]:
    """Each field's first broken rule, with its message (empty when the spec follows every rule)."""
    problems: dict[str, str] = {}
    for rule in SPEC_RULES:
        message = rule.check(spec, cluster)
        if message and rule.field not in problems:
            problems[rule.field] = message
    return problems


def check_spec(spec: GatewaySpec, cluster: ClusterFacts) -> None:
    """Raise ``ValuesError`` with every broken rule's message."""
    problems = spec_problems(spec, cluster)
    if problems:
        raise ValuesError(" ".join(problems.values()))
