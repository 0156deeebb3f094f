"""The BackendTLSPolicy and BackendCA ConfigMap built from the server certificate the chart's hook issued (pure),
and the calls the pass makes to put them in place (with a recording fake)."""

from __future__ import annotations

import datetime
import ipaddress
from types import SimpleNamespace

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from workers.drivers.kube import SecretData
from workers.reconcile.gateway.backend_tls.objects import (
    BackendTls,
    CertificateProblem,
    backend_tls_objects,
    route_backend_service,
    server_certificate,
)
from workers.reconcile.gateway.backend_tls.reconcile import reconcile_backend_tls
from workers.reconcile.gateway.observation.drift import INSTANCE_LABEL
from workers.reconcile.gateway.observation.view import GatewayView

NOW = datetime.datetime(2026, 12, 1, tzinfo=datetime.UTC)


def _pem(cert: x509.Certificate) -> str:
    return cert.public_bytes(serialization.Encoding.PEM).decode()


def _ca(name: str) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(NOW)
        .not_valid_after(NOW + datetime.timedelta(1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    return cert, key


def _leaf(
    ca: tuple[x509.Certificate, ec.EllipticCurvePrivateKey],
    sans: list[x509.GeneralName],
    usage: x509.ObjectIdentifier = ExtendedKeyUsageOID.SERVER_AUTH,
) -> x509.Certificate:
    key = ec.generate_private_key(ec.SECP256R1())
    builder = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "gateway")]))
        .issuer_name(ca[0].subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(NOW)
        .not_valid_after(NOW + datetime.timedelta(1))
        .add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
    )
    if sans:
        builder = builder.add_extension(x509.SubjectAlternativeName(sans), critical=False)
    return builder.sign(ca[1], hashes.SHA256())


CA = _ca("openshell-ca")
SERVICE_SANS = [
    x509.DNSName("gw-edge-openshell"),
    x509.DNSName("gw-edge-openshell.gw-edge.svc"),
    x509.DNSName("gw-edge-openshell.gw-edge.svc.cluster.local"),
    x509.DNSName("localhost"),
    x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
]


def _data(cert: x509.Certificate, ca: x509.Certificate = CA[0]) -> dict[str, str]:
    return {"tls.crt": _pem(cert), "tls.key": "unused", "ca.crt": _pem(ca)}


def test_the_services_full_dns_name_is_validated_against_the_signing_ca() -> None:
    tls = server_certificate(_data(_leaf(CA, SERVICE_SANS)), "openshell-server-tls", "gw-edge-openshell", "gw-edge")
    assert tls.hostname == "gw-edge-openshell.gw-edge.svc.cluster.local"
    assert x509.load_pem_x509_certificate(tls.ca_pem.encode()) == CA[0]


def test_without_the_service_name_another_dns_san_is_taken_never_a_wildcard() -> None:
    cert = _leaf(CA, [x509.DNSName("*.example.org"), x509.DNSName("gw.example.org")])
    assert server_certificate(_data(cert), "s", "svc", "ns").hostname == "gw.example.org"


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ({"tls.crt": ""}, "has no tls.crt or ca.crt"),
        ({"tls.crt": "not pem", "ca.crt": "not pem"}, "does not hold PEM certificates"),
        (_data(_leaf(CA, SERVICE_SANS), ca=_ca("another-ca")[0]), "does not verify its tls.crt"),
        (_data(_leaf(CA, SERVICE_SANS, ExtendedKeyUsageOID.CLIENT_AUTH)), "is not for TLS servers"),
        (_data(_leaf(CA, [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))])), "names no DNS SAN"),
    ],
)
def test_a_certificate_that_cannot_back_the_policy_says_why(data: dict[str, str], problem: str) -> None:
    with pytest.raises(CertificateProblem, match=problem):
        server_certificate(data, "openshell-server-tls", "gw-edge-openshell", "gw-edge")


def test_the_policy_targets_the_service_and_names_the_ca_configmap() -> None:
    tls = BackendTls(ca_pem="PEM\n", hostname="svc.ns.svc.cluster.local")
    configmap, policy = backend_tls_objects("gw-edge", "gw-edge", "svc", tls, "v1alpha3", {"owner": "us"}, "42")
    assert configmap["data"] == {"ca.crt": "PEM\n"}
    labels = {"owner": "us", INSTANCE_LABEL: "gw-edge", "controlplane/backend-ca": "true"}
    for obj in (configmap, policy):
        assert obj["metadata"]["labels"] == labels
        assert obj["metadata"]["annotations"] == {"controlplane/server-secret-version": "42"}
    assert policy["apiVersion"] == "gateway.networking.k8s.io/v1alpha3"
    assert policy["spec"] == {
        "targetRefs": [{"group": "", "kind": "Service", "name": "svc"}],
        "validation": {
            "caCertificateRefs": [{"group": "", "kind": "ConfigMap", "name": configmap["metadata"]["name"]}],
            "hostname": "svc.ns.svc.cluster.local",
        },
    }


def test_the_backend_service_is_the_grpcroutes_backend() -> None:
    manifest = """---
kind: Service
metadata: {name: other}
---
kind: GRPCRoute
metadata: {name: route}
spec:
  rules:
  - backendRefs:
    - {name: gw-edge-openshell, port: 8080}
"""
    assert route_backend_service(manifest) == "gw-edge-openshell"
    assert route_backend_service("---\nkind: Service\nmetadata: {name: x}\n") is None


class RecordingKube:
    """The calls ``reconcile_backend_tls`` makes: discovery, and each object applied with its apiVersion."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def served_versions(self, group: str, plural: str) -> list[str]:
        self.calls.append("discovery")
        return ["v1alpha3"]

    def read_secret(self, namespace: str, name: str) -> SecretData:
        return SecretData(_data(_leaf(CA, SERVICE_SANS)), "7")

    def apply_object(self, body: dict, plural: str) -> None:
        self.calls.append(f"apply {body['apiVersion']} {plural}")

    def delete_object(self, api_version: str, plural: str, namespace: str, name: str) -> None:
        self.calls.append(f"delete {api_version} {plural} {name}")


@pytest.mark.parametrize(
    ("listed", "calls"),
    [
        (
            "gateway.networking.k8s.io/v1",
            ["apply v1 configmaps", "apply gateway.networking.k8s.io/v1 backendtlspolicies"],
        ),
        (None, ["discovery", "apply v1 configmaps", "apply gateway.networking.k8s.io/v1alpha3 backendtlspolicies"]),
    ],
)
def test_the_policy_takes_the_version_the_pass_listed_it_at_else_asks_discovery(
    listed: str | None, calls: list[str]
) -> None:
    manifest = "---\nkind: GRPCRoute\nmetadata: {name: r}\nspec:\n  rules:\n  - backendRefs: [{name: gw-edge-svc}]\n"
    request = SimpleNamespace(backend_tls_secret="tls", namespace="gw-edge", release="gw-edge", namespace_labels={})
    view = GatewayView(release=SimpleNamespace(manifest=manifest), backend_tls_api_version=listed)
    kube = RecordingKube()
    assert reconcile_backend_tls(request, SimpleNamespace(kube=kube), view) is None
    assert kube.calls == calls


def test_a_cluster_the_pass_found_serving_no_policy_api_is_told_so_without_discovery() -> None:
    manifest = "---\nkind: GRPCRoute\nmetadata: {name: r}\nspec:\n  rules:\n  - backendRefs: [{name: svc}]\n"
    request = SimpleNamespace(backend_tls_secret="tls", namespace="gw-edge", release="gw-edge", namespace_labels={})
    kube = RecordingKube()
    view = GatewayView(release=SimpleNamespace(manifest=manifest), backend_tls_api_version="")
    assert "does not serve BackendTLSPolicy" in reconcile_backend_tls(request, SimpleNamespace(kube=kube), view)
    assert kube.calls == []


MANIFEST = "---\nkind: GRPCRoute\nmetadata: {name: r}\nspec:\n  rules:\n  - backendRefs: [{name: gw-edge-svc}]\n"
TLS = server_certificate(_data(_leaf(CA, SERVICE_SANS)), "tls", "gw-edge-svc", "gw-edge")
CONFIGMAP, POLICY = backend_tls_objects("gw-edge", "gw-edge", "gw-edge-svc", TLS, "v1", {}, "7")
APPLY_CM, APPLY_POLICY = "apply v1 configmaps", "apply gateway.networking.k8s.io/v1 backendtlspolicies"


def listed(obj: dict, **changes: object) -> dict:
    """``obj`` as the API server lists it (server fields added), with top-level ``changes``."""
    return {**obj, "metadata": {**obj["metadata"], "resourceVersion": "99"}, "status": {}, **changes}


def annotated(obj: dict, version: str) -> dict:
    return listed(obj, metadata={**obj["metadata"], "annotations": {"controlplane/server-secret-version": version}})


@pytest.mark.parametrize(
    ("policy", "configmap", "calls"),
    [
        (listed(POLICY), listed(CONFIGMAP), []),
        (listed(POLICY, spec={**POLICY["spec"], "validation": {}}), listed(CONFIGMAP), [APPLY_POLICY]),
        (listed(POLICY), listed(CONFIGMAP, data={"ca.crt": "an older CA\n"}), [APPLY_CM]),
        (annotated(POLICY, "6"), annotated(CONFIGMAP, "6"), [APPLY_CM, APPLY_POLICY]),
        (listed(POLICY), None, [APPLY_CM]),
        (None, None, [APPLY_CM, APPLY_POLICY]),
    ],
    ids=["in-step", "hostname-changed", "ca-rotated", "secret-rewritten", "configmap-deleted", "both-absent"],
)
def test_only_what_differs_from_the_server_secret_is_written(
    policy: dict | None, configmap: dict | None, calls: list[str]
) -> None:
    request = SimpleNamespace(backend_tls_secret="tls", namespace="gw-edge", release="gw-edge", namespace_labels={})
    kube = RecordingKube()
    objects = {("BackendTLSPolicy", "gw-edge-backend-tls"): policy} if policy else {}
    view = GatewayView(
        release=SimpleNamespace(manifest=MANIFEST),
        objects=objects,
        backend_ca=configmap,
        backend_tls_api_version="gateway.networking.k8s.io/v1",
    )
    assert reconcile_backend_tls(request, SimpleNamespace(kube=kube), view) is None
    assert kube.calls == calls


@pytest.mark.parametrize(
    ("policy", "configmap", "removed"),
    [
        (listed(POLICY), listed(CONFIGMAP), True),
        (None, listed(CONFIGMAP), True),
        (None, None, False),
    ],
)
def test_without_a_route_or_tls_whatever_is_left_is_removed(
    policy: dict | None, configmap: dict | None, removed: bool
) -> None:
    request = SimpleNamespace(backend_tls_secret=None, namespace="gw-edge", release="gw-edge", namespace_labels={})
    kube = RecordingKube()
    objects = {("BackendTLSPolicy", "gw-edge-backend-tls"): policy} if policy else {}
    view = GatewayView(release=SimpleNamespace(manifest=MANIFEST), objects=objects, backend_ca=configmap)
    assert reconcile_backend_tls(request, SimpleNamespace(kube=kube), view) is None
    deletes = [
        "delete gateway.networking.k8s.io/v1 backendtlspolicies gw-edge-backend-tls",
        "delete gateway.networking.k8s.io/v1alpha3 backendtlspolicies gw-edge-backend-tls",
        "delete v1 configmaps gw-edge-backend-ca",
    ]
    assert kube.calls == (deletes if removed else [])
