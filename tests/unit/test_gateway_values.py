"""gateways.values: the pure mapping from a gateway spec and its cluster to the chart's Helm values."""

from __future__ import annotations

import copy
import subprocess
import sys
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest

from controlplane.values_tree import deep_merge
from gateways.values import (
    TRUSTED_CA_CONFIGMAP,
    ClusterFacts,
    GatewaySpec,
    RoutingConfig,
    ValuesError,
    chart_fullname,
    db_secret_name,
    default_route_host,
    gateway_values,
    host_in_domains,
    image_values,
    route_address,
    route_host,
    routing_problems,
    sandbox_service_account,
    trusted_ca_unmounted,
)
from tests.paths import PROJECT_ROOT

HEX = "0123456789abcdef" * 4
DIGITS = "1234567890" * 6 + "1234"
HEX512 = "fedcba9876543210" * 8

SPEC = GatewaySpec(
    namespace="gw-alpha-1a2b3c4d",
    release="alpha",
    image="ghcr.io/example/gateway:1.0",
    supervisor_image="ghcr.io/example/supervisor:1.0",
)
K8S = ClusterFacts(flavour="kubernetes", base_domain="apps.east.example.com", gateway_api=True)
K8S_NO_GWAPI = replace(K8S, gateway_api=False)
OCP = ClusterFacts(flavour="openshift", base_domain="apps.ocp.example.com", gateway_api=False)
OCP_GWAPI = replace(OCP, gateway_api=True)
ISSUER = "https://id.test"
ROUTING = RoutingConfig(
    gateway_name="public",
    gateway_namespace="gateway-system",
    issuer_name="corp-ca",
    issuer_kind="ClusterIssuer",
)


def render(image: dict[str, str]) -> str:
    """What the chart renders: printf "%s:%s" repository tag."""
    return "{}:{}".format(image["repository"], image["tag"])


# ---------------------------------------------------------------- images


@pytest.mark.parametrize(
    ("reference", "repository", "tag", "rendered"),
    [
        ("nginx", "nginx", "latest", "nginx:latest"),
        ("nginx:1.25", "nginx", "1.25", "nginx:1.25"),
        ("library/nginx:1.25-alpine", "library/nginx", "1.25-alpine", "library/nginx:1.25-alpine"),
        ("ghcr.io/org/gw:v1.2.3", "ghcr.io/org/gw", "v1.2.3", "ghcr.io/org/gw:v1.2.3"),
        ("ghcr.io/org/team/gw", "ghcr.io/org/team/gw", "latest", "ghcr.io/org/team/gw:latest"),
        ("host:5000/repo:1", "host:5000/repo", "1", "host:5000/repo:1"),
        ("localhost:5000/repo", "localhost:5000/repo", "latest", "localhost:5000/repo:latest"),
        ("localhost/repo:dev", "localhost/repo", "dev", "localhost/repo:dev"),
        ("[::1]:5000/repo:2", "[::1]:5000/repo", "2", "[::1]:5000/repo:2"),
        (f"repo@sha256:{HEX}", "repo@sha256", HEX, f"repo@sha256:{HEX}"),
        (f"repo:1.0@sha256:{HEX}", "repo:1.0@sha256", HEX, f"repo:1.0@sha256:{HEX}"),
        (f"host:5000/repo@sha256:{HEX}", "host:5000/repo@sha256", HEX, f"host:5000/repo@sha256:{HEX}"),
        (
            f"host:5000/a/b:tag@sha256:{HEX}",
            "host:5000/a/b:tag@sha256",
            HEX,
            f"host:5000/a/b:tag@sha256:{HEX}",
        ),
        (f"repo@sha256:{DIGITS}", "repo@sha256", DIGITS, f"repo@sha256:{DIGITS}"),
        (f"repo@sha512:{HEX512}", "repo@sha512", HEX512, f"repo@sha512:{HEX512}"),
    ],
)
def test_image_values_render_the_exact_reference(reference: str, repository: str, tag: str, rendered: str) -> None:
    image = image_values(reference)
    assert image == {"repository": repository, "tag": tag}
    assert render(image) == rendered
    assert rendered in (reference, f"{reference}:latest")


@pytest.mark.parametrize(
    "reference",
    [f"repo@sha256:{HEX}", f"repo:latest@sha256:{HEX}", f"r.example.com:443/x/y@sha256:{HEX}", f"z@sha512:{HEX512}"],
)
def test_a_digest_is_never_turned_into_latest(reference: str) -> None:
    rendered = render(image_values(reference))
    assert rendered == reference
    assert rendered.endswith(reference.rsplit("@", 1)[1])
    assert not rendered.endswith(":latest")


@pytest.mark.parametrize(
    "reference", ["UPPER/case", "repo:", "repo@sha256:short", " repo", "repo:tag:extra", "a/../b", "x" * 600]
)
def test_invalid_image_references_are_values_errors(reference: str) -> None:
    with pytest.raises(ValuesError, match="Invalid image reference"):
        image_values(reference)


def test_a_missing_image_is_a_values_error_that_says_so() -> None:
    with pytest.raises(ValuesError, match="No supervisor image: neither the gateway nor its release names one"):
        image_values("", "supervisor image")


def test_both_images_are_mapped() -> None:
    spec = replace(SPEC, image=f"reg:5000/gw:2@sha256:{HEX}", supervisor_image="reg:5000/sup")
    values = gateway_values(spec, K8S, ROUTING)
    assert render(values["image"]) == f"reg:5000/gw:2@sha256:{HEX}"
    assert values["supervisor"] == {"image": {"repository": "reg:5000/sup", "tag": "latest"}}


def test_an_invalid_supervisor_image_fails_the_mapping() -> None:
    with pytest.raises(ValuesError, match="Invalid image reference 'NOPE'"):
        gateway_values(replace(SPEC, supervisor_image="NOPE"), K8S, ROUTING)


# ---------------------------------------------------------------- server: database, trusted CA, OIDC


@pytest.mark.parametrize(
    ("external_db", "trusted_ca", "issuer", "server"),
    [
        (False, False, "", None),
        (True, False, "", {"externalDbSecret": "alpha-db-credentials"}),
        # The chart has no other way to mount a CA: without an issuer the trusted CA sets no key at all.
        (False, True, "", None),
        (True, True, "", {"externalDbSecret": "alpha-db-credentials"}),
        (False, True, ISSUER, {"oidc": {"issuer": ISSUER, "caConfigMapName": "gateway-trusted-ca"}}),
        (False, False, "https://id.test", {"oidc": {"issuer": "https://id.test"}}),
    ],
)
def test_database_and_trusted_ca(
    external_db: bool, trusted_ca: bool, issuer: str, server: dict[str, Any] | None
) -> None:
    spec = replace(SPEC, has_external_db=external_db, oidc_issuer=issuer)
    values = gateway_values(spec, replace(K8S, has_trusted_ca=trusted_ca), ROUTING)
    assert values.get("server") == server


@pytest.mark.parametrize(
    ("trusted_ca", "issuer", "unmounted"),
    [(False, "", False), (True, "https://id.test", False), (False, "https://id.test", False), (True, "", True)],
)
def test_trusted_ca_unmounted_only_with_a_trusted_ca_and_no_issuer(
    trusted_ca: bool, issuer: str, unmounted: bool
) -> None:
    message = trusted_ca_unmounted(replace(SPEC, oidc_issuer=issuer), replace(K8S, has_trusted_ca=trusted_ca))
    assert (message is not None) is unmounted
    if unmounted:
        assert "only for an OIDC issuer" in message and "server.oidc.caConfigMapName" in message


@pytest.mark.parametrize(
    ("release", "fullname", "sandbox"),
    [
        ("alpha", "alpha-openshell", "alpha-openshell-sandbox"),
        ("my-openshell", "my-openshell", "my-openshell-sandbox"),
        ("a" * 60, "a" * 60 + "-op", "a" * 60 + "-op"),
    ],
)
def test_names_follow_the_upstream_chart(release: str, fullname: str, sandbox: str) -> None:
    """`openshell.fullname` and `openshell.sandboxServiceAccountName` with the chart's default nameOverride."""
    assert chart_fullname(release) == fullname
    assert sandbox_service_account(release) == sandbox


def test_names_the_reconciler_creates() -> None:
    assert db_secret_name("alpha") == "alpha-db-credentials"
    assert TRUSTED_CA_CONFIGMAP == "gateway-trusted-ca"


OIDC_FULL = {
    "oidc_issuer": "https://id.example.com/realms/x",
    "oidc_audience": "openshell",
    "oidc_roles_claim": "groups",
    "oidc_admin_role": "admins",
    "oidc_user_role": "users",
}


@pytest.mark.parametrize(
    ("fields", "oidc"),
    [
        ({}, None),
        ({"oidc_issuer": "https://id.example.com"}, {"issuer": "https://id.example.com"}),
        (
            OIDC_FULL,
            {
                "issuer": "https://id.example.com/realms/x",
                "audience": "openshell",
                "rolesClaim": "groups",
                "adminRole": "admins",
                "userRole": "users",
            },
        ),
        (
            {"oidc_issuer": "https://id.example.com", "oidc_ca_configmap": "idp-ca"},
            {"issuer": "https://id.example.com", "caConfigMapName": TRUSTED_CA_CONFIGMAP},  # the bundle
        ),
        (
            {"oidc_issuer": "https://id.example.com", "oidc_user_role": "users"},
            {"issuer": "https://id.example.com", "userRole": "users"},
        ),
    ],
)
def test_oidc_only_with_an_issuer_and_ca_only_when_given(fields: dict[str, str], oidc: dict[str, str] | None) -> None:
    values = gateway_values(replace(SPEC, **fields), K8S, ROUTING)
    assert values.get("server", {}).get("oidc") == oidc


# ---------------------------------------------------------------- routing

DEFAULT_K8S_HOST = "gw-alpha-1a2b3c4d.apps.east.example.com"
DEFAULT_OCP_HOST = "gw-alpha-1a2b3c4d.apps.ocp.example.com"
GRPC_OFF = {"enabled": False}
ROUTE_OFF = {"enabled": False}
CERT_OFF = {"enabled": False}
CERT_RELEASES_CHOICE = None  # behind the Gateway API the release's values choose certgen or cert-manager


def _grpc(host: str) -> dict[str, Any]:
    return {"enabled": True, "hostnames": [host], "gateway": {"name": "public", "namespace": "gateway-system"}}


def _route(host: str) -> dict[str, Any]:
    return {"enabled": True, "host": host}


def _cert(host: str) -> dict[str, Any]:
    return {"enabled": True, "serverIssuerRef": {"name": "corp-ca", "kind": "ClusterIssuer"}, "serverDnsNames": [host]}


@pytest.mark.parametrize(
    ("cluster", "route_enabled", "host", "expected"),
    [
        (K8S, True, "", (_grpc(DEFAULT_K8S_HOST), ROUTE_OFF, CERT_RELEASES_CHOICE)),
        (K8S, True, "gw.tenant.example.org", (_grpc("gw.tenant.example.org"), ROUTE_OFF, CERT_RELEASES_CHOICE)),
        (K8S, False, "", (GRPC_OFF, ROUTE_OFF, CERT_OFF)),
        (K8S_NO_GWAPI, False, "", (GRPC_OFF, ROUTE_OFF, CERT_OFF)),
        (OCP, True, "", (GRPC_OFF, _route(DEFAULT_OCP_HOST), _cert(DEFAULT_OCP_HOST))),
        (
            OCP,
            True,
            "gw.tenant.example.org",
            (GRPC_OFF, _route("gw.tenant.example.org"), _cert("gw.tenant.example.org")),
        ),
        (OCP, False, "", (GRPC_OFF, ROUTE_OFF, CERT_OFF)),
        (OCP_GWAPI, True, "", (_grpc(DEFAULT_OCP_HOST), ROUTE_OFF, CERT_RELEASES_CHOICE)),
        (OCP_GWAPI, False, "", (GRPC_OFF, ROUTE_OFF, CERT_OFF)),
    ],
    ids=[
        "k8s-default-host",
        "k8s-spec-host",
        "k8s-route-off",
        "k8s-no-gwapi-route-off",
        "ocp-default-host",
        "ocp-spec-host",
        "ocp-route-off",
        "ocp-with-gwapi-prefers-grpcroute",
        "ocp-with-gwapi-route-off",
    ],
)
def test_routing_table(
    cluster: ClusterFacts, route_enabled: bool, host: str, expected: tuple[dict[str, Any], ...]
) -> None:
    values = gateway_values(replace(SPEC, route_enabled=route_enabled, route_host=host), cluster, ROUTING)
    assert (values["grpcRoute"], values["openshiftRoute"], values.get("certManager")) == expected


def test_kubernetes_without_gateway_api_cannot_expose_a_route() -> None:
    with pytest.raises(ValuesError, match="without the Gateway API has no way to expose"):
        gateway_values(SPEC, K8S_NO_GWAPI, ROUTING)


def test_gateway_namespace_is_omitted_when_not_configured() -> None:
    values = gateway_values(SPEC, K8S, replace(ROUTING, gateway_namespace=""))
    assert values["grpcRoute"]["gateway"] == {"name": "public"}


def test_a_missing_gateway_name_is_an_error_on_gateway_api_clusters() -> None:
    with pytest.raises(ValuesError, match="no Gateway name is configured"):
        gateway_values(SPEC, K8S, replace(ROUTING, gateway_name=""))
    # ... but not when no route is wanted.
    assert gateway_values(replace(SPEC, route_enabled=False), K8S, RoutingConfig())["grpcRoute"] == GRPC_OFF


def test_openshift_routes_need_an_issuer() -> None:
    with pytest.raises(ValuesError, match="cert-manager issuer name"):
        gateway_values(SPEC, OCP, replace(ROUTING, issuer_name=""))
    with pytest.raises(ValuesError, match="issuer kind must be one of"):
        gateway_values(SPEC, OCP, replace(ROUTING, issuer_kind="Vault"))


def test_namespaced_issuer_and_route_annotations() -> None:
    routing = replace(ROUTING, issuer_kind="Issuer", route_annotations={"haproxy.router.openshift.io/timeout": "5m"})
    values = gateway_values(SPEC, OCP, routing)
    assert values["certManager"]["serverIssuerRef"] == {"name": "corp-ca", "kind": "Issuer"}
    assert values["openshiftRoute"]["annotations"] == {"haproxy.router.openshift.io/timeout": "5m"}
    assert values["openshiftRoute"]["annotations"] is not routing.route_annotations


@pytest.mark.parametrize(
    ("cluster", "routing", "problems"),
    [
        (K8S, ROUTING, []),
        (K8S, RoutingConfig(gateway_name="public"), []),
        (K8S, RoutingConfig(issuer_name="corp-ca"), ["no Gateway name"]),
        (K8S_NO_GWAPI, ROUTING, ["no way to expose"]),
        (OCP, RoutingConfig(issuer_name="corp-ca"), []),
        (OCP, RoutingConfig(gateway_name="public"), ["issuer name"]),
        (OCP, RoutingConfig(issuer_name="ca", issuer_kind="Bogus"), ["issuer kind"]),
        (OCP, RoutingConfig(issuer_kind="Bogus"), ["issuer name", "issuer kind"]),
        (OCP_GWAPI, RoutingConfig(gateway_name="public"), []),
        (replace(K8S, flavour="nomad"), ROUTING, ["Unknown cluster flavour"]),
    ],
)
def test_routing_problems_for_startup_validation(
    cluster: ClusterFacts, routing: RoutingConfig, problems: list[str]
) -> None:
    found = routing_problems(cluster, routing)
    assert len(found) == len(problems)
    for message, fragment in zip(found, problems, strict=True):
        assert fragment in message


# ---------------------------------------------------------------- hosts and addresses


@pytest.mark.parametrize(
    ("spec", "cluster", "host"),
    [
        (SPEC, K8S, DEFAULT_K8S_HOST),
        (replace(SPEC, route_host="gw.example.org"), K8S, "gw.example.org"),
        (replace(SPEC, route_host="GW.Example.org."), K8S, "gw.example.org"),
        (replace(SPEC, route_enabled=False), K8S, None),
        (SPEC, replace(K8S, base_domain="apps.example.com."), "gw-alpha-1a2b3c4d.apps.example.com"),
    ],
)
def test_route_host(spec: GatewaySpec, cluster: ClusterFacts, host: str | None) -> None:
    assert route_host(spec, cluster) == host


@pytest.mark.parametrize(
    "spec",
    [
        replace(SPEC, namespace="n" * 64),  # longer than a DNS label
        replace(SPEC, route_host="bad_host.example.com"),
        replace(SPEC, route_host="-x.example.com"),
        replace(SPEC, route_host="a." * 127 + "example.com"),
    ],
)
def test_invalid_hosts_are_values_errors(spec: GatewaySpec) -> None:
    with pytest.raises(ValuesError, match="not a valid DNS name"):
        route_host(spec, K8S)
    with pytest.raises(ValuesError, match="not a valid DNS name"):
        gateway_values(spec, K8S, ROUTING)


def test_route_address() -> None:
    assert route_address("gw.example.org") == "grpcs://gw.example.org:443"
    assert route_address(route_host(SPEC, K8S) or "") == f"grpcs://{DEFAULT_K8S_HOST}:443"


# ---------------------------------------------------------------- other settings and errors


@pytest.mark.parametrize(("preflight", "expected"), [(None, None), (True, True), (False, False)])
def test_agent_sandbox_preflight_is_set_only_when_the_cluster_says_so(preflight: bool | None, expected: Any) -> None:
    values = gateway_values(SPEC, replace(K8S, agent_sandbox_preflight=preflight), ROUTING)
    if expected is None:
        assert "agentSandbox" not in values
    else:
        assert values["agentSandbox"] == {"preflight": {"enabled": expected}}


def test_unknown_flavour_and_missing_release_are_errors() -> None:
    with pytest.raises(ValuesError, match="Unknown cluster flavour 'nomad'"):
        gateway_values(SPEC, replace(K8S, flavour="nomad"), ROUTING)
    with pytest.raises(ValuesError, match="release name is required"):
        gateway_values(replace(SPEC, release=""), K8S, ROUTING)


def test_minimal_values_in_full() -> None:
    assert gateway_values(SPEC, K8S, ROUTING) == {
        "image": {"repository": "ghcr.io/example/gateway", "tag": "1.0"},
        "supervisor": {"image": {"repository": "ghcr.io/example/supervisor", "tag": "1.0"}},
        "grpcRoute": _grpc(DEFAULT_K8S_HOST),
        "openshiftRoute": ROUTE_OFF,
        "networkPolicy": {"enabled": False},
    }


@pytest.mark.parametrize("cluster", [K8S, K8S_NO_GWAPI, OCP, OCP_GWAPI])
def test_the_sandbox_network_policy_is_off_unless_the_cluster_asks_for_it(cluster: ClusterFacts) -> None:
    """HyperShell's choice by default; a cluster with `network_policy` leaves the chart's default (on)."""
    spec = replace(SPEC, route_enabled=cluster.gateway_api or cluster.flavour == "openshift")
    assert gateway_values(spec, cluster, ROUTING)["networkPolicy"] == {"enabled": False}
    assert "networkPolicy" not in gateway_values(spec, replace(cluster, network_policy=True), ROUTING)


@pytest.mark.parametrize(("network_policy", "enabled"), [(False, False), (True, True)])
def test_the_clusters_network_policy_setting_wins_over_a_release_that_turns_it_on(
    network_policy: bool, enabled: bool
) -> None:
    """A release's `networkPolicy.enabled: true` cannot put the policy on a cluster that is off; its other keys
    stay."""
    release = {"networkPolicy": {"enabled": True}, "image": {"pullPolicy": "Always"}}
    values = deep_merge(release, gateway_values(SPEC, replace(K8S, network_policy=network_policy), ROUTING))
    assert values["networkPolicy"] == {"enabled": enabled}
    assert values["image"]["pullPolicy"] == "Always"


def test_a_release_may_turn_the_policy_off_on_a_cluster_that_asks_for_it() -> None:
    values = deep_merge(
        {"networkPolicy": {"enabled": False}}, gateway_values(SPEC, replace(K8S, network_policy=True), ROUTING)
    )
    assert values["networkPolicy"] == {"enabled": False}


def test_mapping_is_pure_and_returns_fresh_dicts() -> None:
    routing = replace(ROUTING, route_annotations={"a": "b"})
    before = copy.deepcopy((SPEC, OCP, routing))
    first = gateway_values(SPEC, OCP, routing)
    first["openshiftRoute"]["annotations"]["a"] = "changed"
    first["certManager"]["serverDnsNames"].append("x")
    second = gateway_values(SPEC, OCP, routing)
    assert (SPEC, OCP, routing) == before
    assert second["openshiftRoute"]["annotations"] == {"a": "b"}
    assert second["certManager"]["serverDnsNames"] == [DEFAULT_OCP_HOST]


def test_values_module_imports_no_django() -> None:
    code = (
        "import sys, gateways.values, gateways.chart_keys; "
        "sys.exit(any(m.split('.')[0] in ('django', 'rest_framework', 'celery') for m in sys.modules))"
    )
    assert subprocess.run([sys.executable, "-c", code], cwd=PROJECT_ROOT, timeout=60).returncode == 0


# ---------------------------------------------------------------- adapters from models


def test_from_gateway_and_from_cluster_read_model_like_objects() -> None:
    gateway = SimpleNamespace(
        namespace="gw-a-1",
        helm_release="a",
        image="img:1",
        supervisor_image="sup:1",
        route_enabled=True,
        route_host="",
        oidc_issuer="https://id",
        oidc_audience="",
        oidc_roles_claim="",
        oidc_admin_role="",
        oidc_user_role="",
        oidc_ca_configmap="ca",
        database_provider="external",
    )
    spec = GatewaySpec.from_gateway(gateway)
    assert spec == GatewaySpec(
        namespace="gw-a-1",
        release="a",
        image="img:1",
        supervisor_image="sup:1",
        oidc_issuer="https://id",
        oidc_ca_configmap="ca",
        has_external_db=True,
    )
    assert GatewaySpec.from_gateway(replace_ns(gateway, database_provider="embedded"), release="r").release == "r"
    assert not GatewaySpec.from_gateway(replace_ns(gateway, database_provider="embedded")).has_external_db

    cluster = SimpleNamespace(
        flavour="openshift", base_domain="apps.x", gateway_api=False, trusted_ca_pem="PEM", network_policy=True
    )
    assert ClusterFacts.from_cluster(cluster) == ClusterFacts("openshift", "apps.x", False, True, network_policy=True)
    assert not ClusterFacts.from_cluster(replace_ns(cluster, trusted_ca_pem="")).has_trusted_ca
    assert not ClusterFacts.from_cluster(replace_ns(cluster, network_policy=False)).network_policy


def replace_ns(obj: SimpleNamespace, **changes: Any) -> SimpleNamespace:
    return SimpleNamespace(**{**vars(obj), **changes})


@pytest.mark.parametrize(
    ("host", "domains", "inside"),
    [
        ("a.apps.example.com", ("apps.example.com",), True),
        ("A.Apps.Example.com.", ("apps.example.com",), True),
        ("apps.example.com", ("apps.example.com",), False),
        ("evilapps.example.com", ("apps.example.com",), False),
        ("www.bank.example", ("apps.example.com", "tenant.example.org"), False),
        ("gw.tenant.example.org", ("apps.example.com", "tenant.example.org"), True),
        ("gw.example.org", ("", "apps.example.com"), False),
    ],
)
def test_host_in_domains(host: str, domains: tuple[str, ...], inside: bool) -> None:
    assert host_in_domains(host, domains) is inside


def test_default_route_host_has_one_prefix() -> None:
    assert default_route_host("gw-alpha-1a2b3c4d", "apps.example.com") == "gw-alpha-1a2b3c4d.apps.example.com"


@pytest.mark.parametrize("cluster", [OCP, OCP_GWAPI])
def test_openshift_lets_the_scc_assign_the_uid_and_fs_group(cluster: ClusterFacts) -> None:
    """restricted-v2 refuses the chart's 1000s; null (upstream README, "Install on OpenShift") lets it assign them."""
    values = gateway_values(SPEC, cluster, ROUTING)
    assert values["podSecurityContext"] == {"fsGroup": None}
    assert values["securityContext"] == {"runAsUser": None}


@pytest.mark.parametrize("cluster", [K8S, K8S_NO_GWAPI])
def test_kubernetes_keeps_the_charts_security_context(cluster: ClusterFacts) -> None:
    values = gateway_values(replace(SPEC, route_enabled=cluster.gateway_api), cluster, ROUTING)
    assert "podSecurityContext" not in values and "securityContext" not in values
