"""The BackendTLSPolicy and BackendCA ConfigMap that keep TLS from the Gateway API's proxy to the gateway pod (pure).

The upstream chart serves TLS in the pod (``server.disableTls`` stays false) and renders a GRPCRoute, but no
BackendTLSPolicy: without one, the proxy (Envoy Gateway, for one) speaks plaintext to a TLS port and every
call fails. As HyperShell does, the control plane adds, after Helm, a ConfigMap holding the CA that signed the
server certificate and a BackendTLSPolicy (GEP-1897) targeting the route's backend Service, validating the
certificate against that CA for a hostname that is one of its SANs.

Both carry the server Secret's resourceVersion they were made from (``SECRET_VERSION_ANNOTATION``), so the fleet
resync sees a rotated certificate from a metadata listing, and the ``BACKEND_CA_LABEL`` to list them cluster-wide.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.x509.oid import ExtendedKeyUsageOID

from workers.reconcile.gateway.observation.drift import INSTANCE_LABEL, manifest_objects

__all__ = [
    "BACKEND_CA_LABEL",
    "BACKEND_TLS_GROUP",
    "BACKEND_TLS_PLURAL",
    "BACKEND_TLS_VERSIONS",
    "CA_KEY",
    "SECRET_VERSION_ANNOTATION",
    "BackendTls",
    "CertificateProblem",
    "backend_ca_name",
    "backend_tls_name",
    "backend_tls_objects",
    "holds_as_desired",
    "route_backend_service",
    "server_certificate",
]

BACKEND_TLS_GROUP = "gateway.networking.k8s.io"
BACKEND_TLS_PLURAL = "backendtlspolicies"
# Preferred first: v1 (Gateway API v1.4, standard channel), then v1alpha3 (experimental, the same spec shape).
BACKEND_TLS_VERSIONS = ("v1", "v1alpha3")
CA_KEY = "ca.crt"
BACKEND_CA_LABEL = "controlplane/backend-ca"  # "true" on both objects
SECRET_VERSION_ANNOTATION = "controlplane/server-secret-version"  # the server Secret's resourceVersion they follow


class CertificateProblem(ValueError):
    """The server certificate Secret cannot back a BackendTLSPolicy; the message says why."""


@dataclass(frozen=True)
class BackendTls:
    """What the policy needs from the server certificate: the CA that signed it and a SAN to validate."""

    ca_pem: str
    hostname: str


def backend_tls_name(release: str) -> str:
    return f"{release}-backend-tls"[:253]


def backend_ca_name(release: str) -> str:
    return f"{release}-backend-ca"[:253]


def route_backend_service(manifest: str) -> str | None:
    """The Service the release's GRPCRoute sends traffic to (its first backendRef), or None without a route."""
    for obj in manifest_objects(manifest):
        if obj.get("kind") != "GRPCRoute":
            continue
        for rule in (obj.get("spec") or {}).get("rules") or []:
            for ref in rule.get("backendRefs") or []:
                if ref.get("kind", "Service") == "Service" and ref.get("name"):
                    return str(ref["name"])
    return None


def _dns_sans(cert: x509.Certificate) -> list[str]:
    try:
        extension = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName)
    except x509.ExtensionNotFound:
        return []
    return extension.value.get_values_for_type(x509.DNSName)


def _preferred_hostname(sans: list[str], service: str, namespace: str) -> str | None:
    """The Service's own DNS names first (what the proxy dials), then any other name that is not a wildcard."""
    for wanted in (f"{service}.{namespace}.svc.cluster.local", f"{service}.{namespace}.svc", service):
        if wanted in sans:
            return wanted
    return next((san for san in sans if not san.startswith("*")), None)


def server_certificate(data: Mapping[str, str], secret: str, service: str, namespace: str) -> BackendTls:
    """Check a server TLS Secret's decoded ``tls.crt`` and ``ca.crt``: the CA must verify the certificate, which
    must serve TLS servers and name a DNS SAN. Raises ``CertificateProblem`` naming what is wrong."""
    missing = [key for key in ("tls.crt", CA_KEY) if not data.get(key, "").strip()]
    if missing:
        raise CertificateProblem(f"Secret {namespace}/{secret} has no {' or '.join(missing)}")
    try:
        cert = x509.load_pem_x509_certificate(data["tls.crt"].encode())
        cas = x509.load_pem_x509_certificates(data[CA_KEY].encode())
    except ValueError as exc:
        raise CertificateProblem(f"Secret {namespace}/{secret} does not hold PEM certificates: {exc}") from None
    if not any(_issued_by(cert, ca) for ca in cas):
        raise CertificateProblem(f"The {CA_KEY} of Secret {namespace}/{secret} does not verify its tls.crt")
    try:
        usages = cert.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
        if ExtendedKeyUsageOID.SERVER_AUTH not in usages:
            raise CertificateProblem(f"The certificate of Secret {namespace}/{secret} is not for TLS servers")
    except x509.ExtensionNotFound:
        pass  # no extended key usage: any usage is allowed
    hostname = _preferred_hostname(_dns_sans(cert), service, namespace)
    if hostname is None:
        raise CertificateProblem(f"The certificate of Secret {namespace}/{secret} names no DNS SAN to validate")
    return BackendTls(ca_pem=data[CA_KEY].strip() + "\n", hostname=hostname)


def _issued_by(cert: x509.Certificate, ca: x509.Certificate) -> bool:
    try:
        cert.verify_directly_issued_by(ca)
    except (ValueError, TypeError, InvalidSignature):
        return False
    return True


def backend_tls_objects(
    release: str,
    namespace: str,
    service: str,
    tls: BackendTls,
    version: str,
    labels: Mapping[str, str],
    secret_version: str,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The BackendCA ConfigMap and the BackendTLSPolicy for ``service``, labelled as the release's own objects and
    annotated with the ``secret_version`` (resourceVersion) of the server Secret ``tls`` was read from."""
    labels = {**labels, INSTANCE_LABEL: release, BACKEND_CA_LABEL: "true"}
    annotations = {SECRET_VERSION_ANNOTATION: secret_version}
    configmap = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {
            "name": backend_ca_name(release),
            "namespace": namespace,
            "labels": labels,
            "annotations": annotations,
        },
        "data": {CA_KEY: tls.ca_pem},
    }
    policy = {
        "apiVersion": f"{BACKEND_TLS_GROUP}/{version}",
        "kind": "BackendTLSPolicy",
        "metadata": {
            "name": backend_tls_name(release),
            "namespace": namespace,
            "labels": labels,
            "annotations": annotations,
        },
        "spec": {
            "targetRefs": [{"group": "", "kind": "Service", "name": service}],
            "validation": {
                "caCertificateRefs": [{"group": "", "kind": "ConfigMap", "name": backend_ca_name(release)}],
                "hostname": tls.hostname,
            },
        },
    }
    return configmap, policy


def holds_as_desired(listed: Mapping[str, Any] | None, desired: Mapping[str, Any]) -> bool:
    """Whether a listed object already has the desired apiVersion, spec or data, labels and annotations (then a
    write changes nothing)."""
    if listed is None:
        return False
    meta, wanted = listed.get("metadata") or {}, desired["metadata"]
    return (
        listed.get("apiVersion") == desired["apiVersion"]
        and listed.get("spec") == desired.get("spec")
        and listed.get("data") == desired.get("data")
        and (meta.get("labels") or {}).items() >= wanted["labels"].items()
        and (meta.get("annotations") or {}).items() >= wanted["annotations"].items()
    )
