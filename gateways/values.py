"""Map a gateway spec and its cluster to the gateway chart's Helm values (pure: no I/O, no Django).

The keys follow the upstream OpenShell chart's values interface (DESIGN.md, "Chart"). Every key
set here must exist in the chart's default values; `gateways.chart_keys.check_values_keys` checks
that, and the unit tests check this module against the upstream chart's values.yaml (keys and types).

Inputs are small frozen dataclasses, so callers (the reconciler, tests) build them from models or
plain data; `GatewaySpec.from_gateway` and `ClusterFacts.from_cluster` read any object with the
Gateway / ManagedCluster attribute names without importing the models.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from controlplane.flavours import Flavour
from controlplane.imageref import InvalidImageRefError, parse_image_ref
from gateways.states import DatabaseProvider

__all__ = [
    "TRUSTED_CA_CONFIGMAP",
    "TRUSTED_CA_KEY",
    "ClusterFacts",
    "GatewaySpec",
    "RoutingConfig",
    "ValuesError",
    "chart_fullname",
    "db_secret_name",
    "default_route_host",
    "gateway_values",
    "host_in_domains",
    "image_problem",
    "image_values",
    "route_address",
    "route_host",
    "routing_problems",
    "sandbox_service_account",
    "trusted_ca_unmounted",
]

# The reconciler creates this ConfigMap (key `ca.crt`) before Helm: one bundle of the cluster's trusted CA
# and the gateway's own OIDC CA. The chart mounts it only as `server.oidc.caConfigMapName` (with an issuer).
TRUSTED_CA_CONFIGMAP = "gateway-trusted-ca"
TRUSTED_CA_KEY = "ca.crt"
DB_SECRET_KEY = "uri"
ISSUER_KINDS = ("Issuer", "ClusterIssuer")
_DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$")
MAX_HOST_LENGTH = 253
# The chart's `nameOverride` default: resource names are `<release>-openshell` unless the release contains it.
CHART_NAME = "openshell"


# OpenShift's default `restricted-v2` SCC admits only the UIDs and groups of the namespace's range, and assigns
# them when unset; the chart's defaults (1000) are refused. The upstream chart's README ("Install on OpenShift")
# sets both to null, so the SCC assigns them.
OPENSHIFT_SECURITY_CONTEXT: dict[str, Any] = {
    "podSecurityContext": {"fsGroup": None},
    "securityContext": {"runAsUser": None},
}


class ValuesError(ValueError):
    """The spec, cluster and routing config cannot be mapped to valid values."""


@dataclass(frozen=True)
class GatewaySpec:
    """What the values depend on from a gateway's spec. Empty strings mean "not set"."""

    namespace: str
    release: str
    image: str
    supervisor_image: str
    route_enabled: bool = True
    route_host: str = ""
    oidc_issuer: str = ""
    oidc_audience: str = ""
    oidc_roles_claim: str = ""
    oidc_admin_role: str = ""
    oidc_user_role: str = ""
    oidc_ca_configmap: str = ""
    has_external_db: bool = False

    @classmethod
    def from_gateway(
        cls, gateway: Any, release: str | None = None, images: tuple[str, str] | None = None
    ) -> GatewaySpec:
        """Read a Gateway-like object (model instance or anything with the same attribute names); ``images`` are
        the ones it should run (its overrides, else its chart release's), by default its own fields."""
        image, supervisor_image = images or (gateway.image, gateway.supervisor_image)
        return cls(
            namespace=gateway.namespace,
            release=release or gateway.helm_release,
            image=image,
            supervisor_image=supervisor_image,
            route_enabled=bool(gateway.route_enabled),
            route_host=gateway.route_host or "",
            oidc_issuer=gateway.oidc_issuer or "",
            oidc_audience=gateway.oidc_audience or "",
            oidc_roles_claim=gateway.oidc_roles_claim or "",
            oidc_admin_role=gateway.oidc_admin_role or "",
            oidc_user_role=gateway.oidc_user_role or "",
            oidc_ca_configmap=gateway.oidc_ca_configmap or "",
            has_external_db=str(gateway.database_provider) == DatabaseProvider.EXTERNAL,
        )


@dataclass(frozen=True)
class ClusterFacts:
    """What the values depend on from the managed cluster.

    `agent_sandbox_preflight`: None leaves the chart's default (the preflight is on, so the cluster
    must serve `agents.x-k8s.io/v1alpha1`); True/False sets `agentSandbox.preflight.enabled`.
    `network_policy`: False turns the chart's sandbox NetworkPolicy off; True leaves the chart's default (on).
    """

    flavour: str
    base_domain: str
    gateway_api: bool
    has_trusted_ca: bool = False
    agent_sandbox_preflight: bool | None = None
    network_policy: bool = False

    @classmethod
    def from_cluster(cls, cluster: Any) -> ClusterFacts:
        """Read a ManagedCluster-like object."""
        return cls(
            flavour=str(cluster.flavour),
            base_domain=cluster.base_domain,
            gateway_api=bool(cluster.gateway_api),
            has_trusted_ca=bool(cluster.trusted_ca_pem),
            network_policy=bool(cluster.network_policy),
        )


@dataclass(frozen=True)
class RoutingConfig:
    """Worker configuration for exposing gateways.

    - `gateway_name`/`gateway_namespace`: the Gateway API Gateway every GRPCRoute attaches to
      (needed on clusters that serve the Gateway API).
    - `issuer_name`/`issuer_kind`: the cert-manager issuer of the server certificate behind an
      OpenShift passthrough Route (needed on OpenShift clusters without the Gateway API).
    - `route_annotations`: extra annotations on the OpenShift Route.
    """

    gateway_name: str = ""
    gateway_namespace: str = ""
    issuer_name: str = ""
    issuer_kind: str = "ClusterIssuer"
    route_annotations: Mapping[str, str] = field(default_factory=dict, hash=False)


def db_secret_name(release: str) -> str:
    """The DB credentials Secret (key `uri`) the reconciler creates before Helm."""
    return f"{release}-db-credentials"


def _trunc63(name: str) -> str:
    return name[:63].rstrip("-")


def chart_fullname(release: str) -> str:
    """The chart's `openshell.fullname` with default values: `<release>-openshell`, or the release if it contains it."""
    return _trunc63(release if CHART_NAME in release else f"{release}-{CHART_NAME}")


def sandbox_service_account(release: str) -> str:
    """The chart's sandbox ServiceAccount; on OpenShift the reconciler binds it to the privileged SCC."""
    return _trunc63(f"{chart_fullname(release)}-sandbox")


def trusted_ca_unmounted(spec: GatewaySpec, cluster: ClusterFacts) -> str | None:
    """Why the cluster's trusted CA cannot reach the gateway, or None when it is mounted or there is none.

    The chart mounts a CA bundle only through `server.oidc.caConfigMapName`, and only with an OIDC issuer.
    """
    if cluster.has_trusted_ca and not spec.oidc_issuer:
        return (
            "The cluster has a trusted CA, but the chart mounts a CA bundle only for an OIDC issuer "
            "(server.oidc.caConfigMapName); set an OIDC issuer to mount it."
        )
    return None


def image_problem(reference: str, what: str = "image") -> str | None:
    """Why ``reference`` cannot be mapped to the chart's image values (None when it can)."""
    if not reference:
        return f"No {what}: neither the gateway nor its release names one."
    try:
        parse_image_ref(reference)
    except InvalidImageRefError as exc:
        return f"Invalid image reference {reference!r}: {exc}"
    return None


def image_values(reference: str, what: str = "image") -> dict[str, str]:
    """`{"repository", "tag"}` such that the chart's `printf "%s:%s" repository tag` is the reference.

    - `repo` → (`repo`, `latest`); `repo:tag` and `host:5000/repo:tag` → (`…/repo`, `tag`);
    - `repo@algo:hex` and `repo:tag@algo:hex` → (`repo@algo` or `repo:tag@algo`, `hex`): the
      digest's own colon is the one printf puts back, so the digest survives and is never `:latest`.
    """
    problem = image_problem(reference, what)
    if problem:
        raise ValuesError(problem)
    ref = parse_image_ref(reference)
    if ref.digest:
        algorithm, _, encoded = ref.digest.partition(":")
        prefix = f"{ref.name}:{ref.tag}" if ref.tag else ref.name
        return {"repository": f"{prefix}@{algorithm}", "tag": encoded}
    return {"repository": ref.name, "tag": ref.tag or "latest"}


def default_route_host(namespace: str, base_domain: str) -> str:
    """`<namespace>.<base domain>`: the namespace (`gw-<name>-<id8>`) is unique, so the host is too."""
    return f"{namespace}.{base_domain}"


def host_in_domains(host: str, domains: tuple[str, ...] | list[str]) -> bool:
    """Whether `host` lies strictly below one of `domains` (`a.example.com` is below `example.com`)."""
    host = host.lower().rstrip(".")
    return any(host.endswith("." + domain.lower().rstrip(".")) for domain in domains if domain)


def route_host(spec: GatewaySpec, cluster: ClusterFacts) -> str | None:
    """The route's hostname: the spec's host, else `default_route_host`; None without a route."""
    if not spec.route_enabled:
        return None
    host = spec.route_host or default_route_host(spec.namespace, cluster.base_domain)
    host = host.lower().rstrip(".")
    labels = host.split(".")
    if len(host) > MAX_HOST_LENGTH or not all(_DNS_LABEL.match(label) for label in labels):
        raise ValuesError(f"Route host {host!r} is not a valid DNS name (labels of at most 63 characters).")
    return host


def route_address(host: str) -> str:
    """The address clients dial: gRPC over TLS on the route's host."""
    return f"grpcs://{host}:443"


def routing_problems(cluster: ClusterFacts, routing: RoutingConfig) -> list[str]:
    """Why gateways with a route cannot be exposed on `cluster` with `routing` (empty when they can).

    Usable at worker startup to refuse inconsistent configuration.
    """
    if cluster.flavour not in tuple(Flavour):
        return [f"Unknown cluster flavour {cluster.flavour!r}; expected one of {', '.join(Flavour)}."]
    if cluster.gateway_api:
        if not routing.gateway_name:
            return ["The cluster serves the Gateway API, but no Gateway name is configured for GRPCRoute parentRefs."]
        return []
    if cluster.flavour == Flavour.OPENSHIFT:
        problems = []
        if not routing.issuer_name:
            problems.append(
                "An OpenShift cluster without the Gateway API needs a cert-manager issuer name for the Route's "
                "server certificate."
            )
        if routing.issuer_kind not in ISSUER_KINDS:
            problems.append(f"cert-manager issuer kind must be one of {', '.join(ISSUER_KINDS)}.")
        return problems
    return ["A kubernetes cluster without the Gateway API has no way to expose a gateway route."]


def gateway_values(spec: GatewaySpec, cluster: ClusterFacts, routing: RoutingConfig) -> dict[str, Any]:
    """The Helm values for `spec` on `cluster` (a new nested dict; the inputs are not modified).

    The spec must have passed `gateways.spec_rules.check_spec` (the rules the API checks too); what is left here
    are the cluster's and the routing configuration's problems."""
    if not spec.release:
        raise ValuesError("A release name is required.")
    if cluster.flavour not in tuple(Flavour):
        raise ValuesError(f"Unknown cluster flavour {cluster.flavour!r}; expected one of {', '.join(Flavour)}.")

    server: dict[str, Any] = {}
    if spec.has_external_db:
        server["externalDbSecret"] = db_secret_name(spec.release)
    if spec.oidc_issuer:
        oidc = {"issuer": spec.oidc_issuer}
        for key, value in (
            ("audience", spec.oidc_audience),
            ("rolesClaim", spec.oidc_roles_claim),
            ("adminRole", spec.oidc_admin_role),
            ("userRole", spec.oidc_user_role),
            ("caConfigMapName", TRUSTED_CA_CONFIGMAP if spec.oidc_ca_configmap or cluster.has_trusted_ca else ""),
        ):
            if value:
                oidc[key] = value
        server["oidc"] = oidc

    values: dict[str, Any] = {
        "image": image_values(spec.image, "gateway image"),
        "supervisor": {"image": image_values(spec.supervisor_image, "supervisor image")},
    }
    if server:
        values["server"] = server
    values.update(_routing_values(spec, cluster, routing))
    if cluster.flavour == Flavour.OPENSHIFT:
        values.update(OPENSHIFT_SECURITY_CONTEXT)
    if cluster.agent_sandbox_preflight is not None:
        values["agentSandbox"] = {"preflight": {"enabled": cluster.agent_sandbox_preflight}}
    if not cluster.network_policy:
        # HyperShell tested the chart's sandbox NetworkPolicy on OVN-Kubernetes and chose not to install it; so do
        # we, unless the cluster asks for it, when the chart's default (on) applies.
        values["networkPolicy"] = {"enabled": False}
    return values


def _routing_values(spec: GatewaySpec, cluster: ClusterFacts, routing: RoutingConfig) -> dict[str, Any]:
    disabled_grpc = {"grpcRoute": {"enabled": False}}
    disabled_route = {"openshiftRoute": {"enabled": False}}
    no_certificate = {"certManager": {"enabled": False}}
    host = route_host(spec, cluster)
    if host is None:
        return {**disabled_grpc, **disabled_route, **no_certificate}
    problems = routing_problems(cluster, routing)
    if problems:
        raise ValuesError(" ".join(problems))
    if cluster.gateway_api:
        gateway = {"name": routing.gateway_name}
        if routing.gateway_namespace:
            gateway["namespace"] = routing.gateway_namespace
        grpc = {"grpcRoute": {"enabled": True, "hostnames": [host], "gateway": gateway}}
        # The pod serves TLS with the chart's own server certificate: from its certgen hook, or from cert-manager
        # when the release's values enable `certManager`. Either way a BackendTLSPolicy validates it
        # (workers.reconcile.gateway.backend_tls.reconcile), so `certManager` is the release's to choose here.
        return {**grpc, **disabled_route}
    # OpenShift without the Gateway API: a passthrough Route, the server presenting a cert-manager certificate.
    route: dict[str, Any] = {"enabled": True, "host": host}
    if routing.route_annotations:
        route["annotations"] = dict(routing.route_annotations)
    certificate = {
        "enabled": True,
        "serverIssuerRef": {"name": routing.issuer_name, "kind": routing.issuer_kind},
        "serverDnsNames": [host],
    }
    return {**disabled_grpc, "openshiftRoute": route, "certManager": certificate}
