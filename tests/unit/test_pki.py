"""The PKI player's certificate making (devcluster/pki.py) and its pure decisions (devcluster/pki_player.py):
chains verify with cryptography's X.509 verifier, SANs are exact, usages and key types as asked."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from cryptography.x509.verification import VerificationError

from devcluster import pki
from devcluster.pki_player import CertgenAction, CertgenArgs, certgen_args, certificate_request, decide_certgen
from tests.fixtures.tls import cert, public_key_pem, sans, verify_client, verify_server

NOW = datetime(2030, 6, 1, tzinfo=UTC)
SANS = ("gw", "gw.ns.svc", "*.gw.localhost", "127.0.0.1", "::1", "10.0.0.7")


@pytest.fixture(scope="module")
def bundle() -> pki.CertgenBundle:
    return pki.certgen_bundle(SANS)


def extension(pem: bytes, kind: type[x509.ExtensionType]) -> x509.ExtensionType:
    return cert(pem).extensions.get_extension_for_class(kind).value


# ---------------------------------------------------------------- certgen


@pytest.mark.parametrize("name", (*SANS[:2], "x.gw.localhost", *SANS[3:]))
def test_certgen_server_cert_verifies_for_each_san(bundle: pki.CertgenBundle, name: str) -> None:
    verify_server(bundle.server.cert_pem, bundle.ca.cert_pem, name, at=NOW)


def test_certgen_server_sans_are_exactly_the_requested_ones(bundle: pki.CertgenBundle) -> None:
    assert sans(bundle.server.cert_pem) == set(SANS)
    with pytest.raises(VerificationError):
        verify_server(bundle.server.cert_pem, bundle.ca.cert_pem, "other.example", at=NOW)


def test_certgen_usages_split_server_and_client(bundle: pki.CertgenBundle) -> None:
    assert list(extension(bundle.server.cert_pem, x509.ExtendedKeyUsage)) == [ExtendedKeyUsageOID.SERVER_AUTH]
    assert list(extension(bundle.client.cert_pem, x509.ExtendedKeyUsage)) == [ExtendedKeyUsageOID.CLIENT_AUTH]
    verify_client(bundle.client.cert_pem, bundle.ca.cert_pem, at=NOW)
    with pytest.raises(VerificationError):
        verify_client(bundle.server.cert_pem, bundle.ca.cert_pem, at=NOW)
    assert not extension(bundle.client.cert_pem, x509.BasicConstraints).ca


def test_certgen_subjects_keys_and_validity_are_upstreams(bundle: pki.CertgenBundle) -> None:
    ca = cert(bundle.ca.cert_pem)
    assert ca.subject.rfc4514_string() == "CN=openshell-ca,O=openshell"
    assert extension(bundle.ca.cert_pem, x509.BasicConstraints).ca
    assert extension(bundle.ca.cert_pem, x509.KeyUsage).key_cert_sign
    assert cert(bundle.client.cert_pem).subject.get_attributes_for_oid(NameOID.ORGANIZATIONAL_UNIT_NAME)[0].value == (
        "openshell-user"
    )
    for issued in (bundle.ca, bundle.server, bundle.client):
        certificate = cert(issued.cert_pem)
        assert isinstance(certificate.public_key(), ec.EllipticCurvePublicKey)
        assert certificate.public_key().curve.name == "secp256r1"
        assert (certificate.not_valid_before_utc.year, certificate.not_valid_after_utc.year) == (1975, 4096)
        assert public_key_pem(issued.key_pem) == certificate.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )


def test_a_foreign_ca_does_not_verify(bundle: pki.CertgenBundle) -> None:
    other = pki.certgen_bundle(SANS)
    with pytest.raises(VerificationError):
        verify_server(bundle.server.cert_pem, other.ca.cert_pem, "gw", at=NOW)
    with pytest.raises(VerificationError):
        verify_client(bundle.client.cert_pem, other.ca.cert_pem, at=NOW)


def test_jwt_keys_are_an_ed25519_pair_with_upstreams_kid(bundle: pki.CertgenBundle) -> None:
    signing = serialization.load_pem_private_key(bundle.jwt.signing_pem, password=None)
    public = serialization.load_pem_public_key(bundle.jwt.public_pem)
    assert isinstance(signing, ed25519.Ed25519PrivateKey) and isinstance(public, ed25519.Ed25519PublicKey)
    assert b"BEGIN PRIVATE KEY" in bundle.jwt.signing_pem and b"BEGIN PUBLIC KEY" in bundle.jwt.public_pem
    public.verify(signing.sign(b"token"), b"token")
    spki = public.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    assert bundle.jwt.kid == hashlib.sha256(spki).hexdigest()[:32]


# ---------------------------------------------------------------- cert-manager issuing


@pytest.mark.parametrize(
    ("algorithm", "size", "key_type"),
    [
        ("RSA", None, rsa.RSAPublicKey),
        ("RSA", 3072, rsa.RSAPublicKey),
        ("ECDSA", None, ec.EllipticCurvePublicKey),
        ("ECDSA", 384, ec.EllipticCurvePublicKey),
        ("Ed25519", None, ed25519.Ed25519PublicKey),
    ],
)
def test_a_ca_chain_of_each_key_type_verifies(algorithm: str, size: int | None, key_type: type) -> None:
    ca = pki.issue(pki.CertRequest(common_name="ca", is_ca=True, key_algorithm=algorithm, key_size=size), NOW)
    leaf = pki.issue(
        pki.CertRequest(
            dns_names=("svc.example",),
            usages=("digital signature", "server auth"),
            key_algorithm=algorithm,
            key_size=size,
        ),
        NOW,
        ca,
    )
    for issued in (ca, leaf):
        assert isinstance(cert(issued.cert_pem).public_key(), key_type)
    if size:
        assert cert(leaf.cert_pem).public_key().key_size == size
    cert(leaf.cert_pem).verify_directly_issued_by(cert(ca.cert_pem))
    if algorithm != "Ed25519":  # the Web PKI policy of the verifier has no Ed25519
        verify_server(leaf.cert_pem, ca.cert_pem, "svc.example", at=NOW + timedelta(days=1))


def test_issue_honours_duration_usages_and_an_empty_subject() -> None:
    request = pki.CertRequest(
        dns_names=("a.example",),
        ip_addresses=("192.0.2.1",),
        duration=pki.parse_duration("48h"),
        usages=("signing", "key encipherment", "client auth", "server auth"),
        key_algorithm="ECDSA",
    )
    issued = pki.issue(request, NOW)
    certificate = cert(issued.cert_pem)
    assert (certificate.not_valid_before_utc, certificate.not_valid_after_utc) == (NOW, NOW + timedelta(hours=48))
    usage = extension(issued.cert_pem, x509.KeyUsage)
    assert (usage.digital_signature, usage.key_encipherment, usage.key_cert_sign) == (True, True, False)
    assert set(extension(issued.cert_pem, x509.ExtendedKeyUsage)) == {
        ExtendedKeyUsageOID.CLIENT_AUTH,
        ExtendedKeyUsageOID.SERVER_AUTH,
    }
    assert list(certificate.subject) == []
    assert certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).critical
    assert sans(issued.cert_pem) == {"a.example", "192.0.2.1"}
    assert not extension(issued.cert_pem, x509.BasicConstraints).ca


def test_a_ca_certificate_can_sign_even_without_cert_sign_in_usages() -> None:
    ca = pki.issue(pki.CertRequest(common_name="ca", is_ca=True, key_algorithm="ECDSA"), NOW)
    assert extension(ca.cert_pem, x509.BasicConstraints).ca
    assert extension(ca.cert_pem, x509.KeyUsage).key_cert_sign
    assert cert(ca.cert_pem).issuer == cert(ca.cert_pem).subject


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("8760h", timedelta(days=365)),
        ("2160h0m0s", timedelta(days=90)),
        ("90m", timedelta(minutes=90)),
        ("1.5h", timedelta(minutes=90)),
        ("1h30m15s", timedelta(hours=1, minutes=30, seconds=15)),
    ],
)
def test_parse_duration(text: str, expected: timedelta) -> None:
    assert pki.parse_duration(text) == expected


@pytest.mark.parametrize("text", ["", "1d", "h", "10", "1h 2m", "-1h"])
def test_parse_duration_refuses_what_cert_manager_refuses(text: str) -> None:
    with pytest.raises(pki.PkiError):
        pki.parse_duration(text)


@pytest.mark.parametrize(
    "request_",
    [
        pki.CertRequest(key_algorithm="DSA"),
        pki.CertRequest(key_algorithm="ECDSA", key_size=255),
        pki.CertRequest(key_algorithm="RSA", key_size=1024),
        pki.CertRequest(usages=("server auth", "telepathy")),
    ],
)
def test_unsupported_requests_are_refused(request_: pki.CertRequest) -> None:
    with pytest.raises(pki.PkiError):
        pki.issue(request_, NOW)


def test_split_sans_keeps_order_and_drops_duplicates() -> None:
    assert pki.split_sans(["b", "127.0.0.1", "a", "b", "::1", "127.0.0.1"]) == (("b", "a"), ("127.0.0.1", "::1"))


# ---------------------------------------------------------------- the player's decisions


def job(*args: str) -> dict[str, object]:
    containers = [{"name": "other", "args": ["migrate"]}, {"name": "certgen", "args": list(args)}]
    return {"spec": {"template": {"spec": {"containers": containers}}}}


def test_certgen_args_of_the_upstream_hook() -> None:
    parsed = certgen_args(
        job(
            "generate-certs",
            "--server-secret-name=srv",
            "--client-secret-name=cli",
            "--jwt-secret-name=jwt",
            "--server-san=gw",
            "--server-san",
            "127.0.0.1",
        )
    )
    assert parsed == CertgenArgs("jwt", "srv", "cli", False, ("gw", "127.0.0.1"))
    assert certgen_args(job("generate-certs", "--jwt-only", "--jwt-secret-name=jwt")) == CertgenArgs(
        "jwt", jwt_only=True
    )


@pytest.mark.parametrize(
    "args", [("migrate",), ("generate-certs", "--jwt-secret-name=j"), ("generate-certs", "--jwt-only"), ()]
)
def test_certgen_args_ignore_other_jobs_and_runs_upstream_would_refuse(args: tuple[str, ...]) -> None:
    assert certgen_args(job(*args)) is None


@pytest.mark.parametrize(
    ("exists", "action"),
    [
        ((False, False, False), CertgenAction.CREATE_ALL),
        ((True, True, True), CertgenAction.SKIP),
        ((True, True, False), CertgenAction.CREATE_JWT),
        ((True, False, False), CertgenAction.PARTIAL),
        ((False, True, True), CertgenAction.PARTIAL),
        ((False, False, True), CertgenAction.PARTIAL),
        ((False,), CertgenAction.CREATE_JWT),
        ((True,), CertgenAction.SKIP),
    ],
)
def test_decide_certgen_follows_upstreams_idempotency(exists: tuple[bool, ...], action: CertgenAction) -> None:
    assert decide_certgen(exists) is action


def test_certificate_request_defaults_are_cert_managers() -> None:
    assert certificate_request({"secretName": "s"}) == pki.CertRequest()
    spec = {
        "isCA": True,
        "commonName": "ca",
        "duration": "8760h",
        "privateKey": {"algorithm": "ECDSA", "size": 384},
        "dnsNames": ["a"],
        "ipAddresses": ["127.0.0.1"],
        "usages": ["server auth"],
    }
    assert certificate_request(spec) == pki.CertRequest(
        common_name="ca",
        dns_names=("a",),
        ip_addresses=("127.0.0.1",),
        is_ca=True,
        usages=("server auth",),
        duration=timedelta(days=365),
        key_algorithm="ECDSA",
        key_size=384,
    )
