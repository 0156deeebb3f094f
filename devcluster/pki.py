"""Certificate making for the PKI player: X.509 certificates, keys and the gateway's JWT keypair.

Pure functions over `cryptography`; no I/O. `issue` takes the clock as an argument so tests control it.
The player (`devcluster/pki_player.py`) turns these into Secrets.
"""

from __future__ import annotations

import hashlib
import ipaddress
import re
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

__all__ = [
    "CertRequest",
    "CertgenBundle",
    "Issued",
    "JwtKeys",
    "PkiError",
    "certgen_bundle",
    "issue",
    "jwt_keys",
    "parse_duration",
    "split_sans",
]

PrivateKey = rsa.RSAPrivateKey | ec.EllipticCurvePrivateKey | ed25519.Ed25519PrivateKey

# cert-manager's `usages` names: the key usages, then the extended key usages.
KEY_USAGES = {
    "signing": "digital_signature",
    "digital signature": "digital_signature",
    "content commitment": "content_commitment",
    "key encipherment": "key_encipherment",
    "key agreement": "key_agreement",
    "data encipherment": "data_encipherment",
    "cert sign": "key_cert_sign",
    "crl sign": "crl_sign",
    "encipher only": "encipher_only",
    "decipher only": "decipher_only",
}
EXTENDED_KEY_USAGES = {
    "server auth": ExtendedKeyUsageOID.SERVER_AUTH,
    "client auth": ExtendedKeyUsageOID.CLIENT_AUTH,
    "code signing": ExtendedKeyUsageOID.CODE_SIGNING,
    "email protection": ExtendedKeyUsageOID.EMAIL_PROTECTION,
    "timestamping": ExtendedKeyUsageOID.TIME_STAMPING,
    "ocsp signing": ExtendedKeyUsageOID.OCSP_SIGNING,
    "any": ExtendedKeyUsageOID.ANY_EXTENDED_KEY_USAGE,
}
DEFAULT_USAGES = ("digital signature", "key encipherment")  # cert-manager's default
DEFAULT_DURATION = timedelta(days=90)  # cert-manager's default
DEFAULT_KEY_SIZES = {"RSA": 2048, "ECDSA": 256}
CURVES: dict[int, ec.EllipticCurve] = {256: ec.SECP256R1(), 384: ec.SECP384R1(), 521: ec.SECP521R1()}

# `openshell-gateway generate-certs` (openshell-bootstrap's pki.rs) always puts these on the server
# certificate and appends the `--server-san` values; its certificates use rcgen's default validity.
CERTGEN_DEFAULT_SANS = (
    "openshell",
    "openshell.openshell.svc",
    "openshell.openshell.svc.cluster.local",
    "localhost",
    "openshell.localhost",
    "*.openshell.localhost",
    "host.docker.internal",
    "host.containers.internal",
    "127.0.0.1",
    "::1",
)
CERTGEN_NOT_BEFORE = datetime(1975, 1, 1, tzinfo=UTC)
CERTGEN_NOT_AFTER = datetime(4096, 1, 1, tzinfo=UTC)

_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)(h|ms|m|s)")


class PkiError(ValueError):
    """A certificate request that cannot be issued as asked (bad duration, usage, key algorithm)."""


@dataclass(frozen=True)
class CertRequest:
    """What a certificate should say: the fields of a cert-manager Certificate spec that shape it."""

    common_name: str = ""
    dns_names: tuple[str, ...] = ()
    ip_addresses: tuple[str, ...] = ()
    is_ca: bool = False
    usages: tuple[str, ...] = DEFAULT_USAGES
    not_before: datetime | None = None
    duration: timedelta = DEFAULT_DURATION
    key_algorithm: str = "RSA"
    key_size: int | None = None
    organization: str = ""
    organizational_unit: str = ""


@dataclass(frozen=True)
class Issued:
    """A certificate and its private key, PEM-encoded (the key as PKCS#8)."""

    cert_pem: bytes
    key_pem: bytes


@dataclass(frozen=True)
class JwtKeys:
    """The gateway's sandbox-JWT keypair: Ed25519 PKCS#8 and SPKI PEMs and the key id."""

    signing_pem: bytes
    public_pem: bytes
    kid: str


@dataclass(frozen=True)
class CertgenBundle:
    """What `generate-certs` creates: a CA, a server and a client certificate, and the JWT keypair."""

    ca: Issued
    server: Issued
    client: Issued
    jwt: JwtKeys


def parse_duration(text: str) -> timedelta:
    """A Go duration as cert-manager takes it ("8760h", "2160h0m0s", "90m")."""
    parts = _DURATION_PART.findall(text)
    if not text or "".join(n + u for n, u in parts) != text:
        raise PkiError(f"invalid duration {text!r}")
    unit_seconds = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 0.001}
    return timedelta(seconds=sum(float(n) * unit_seconds[u] for n, u in parts))


def split_sans(values: list[str] | tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(DNS names, IP addresses) from mixed SAN strings, in order, without duplicates."""
    dns: list[str] = []
    ips: list[str] = []
    for value in values:
        try:
            text = str(ipaddress.ip_address(value))
            target = ips
        except ValueError:
            text, target = value, dns
        if text not in target:
            target.append(text)
    return tuple(dns), tuple(ips)


def generate_key(algorithm: str, size: int | None) -> PrivateKey:
    """A private key as cert-manager's `privateKey.algorithm`/`size` ask (RSA 2048 by default)."""
    if algorithm == "Ed25519":
        return ed25519.Ed25519PrivateKey.generate()
    size = size or DEFAULT_KEY_SIZES.get(algorithm)
    if algorithm == "RSA" and size in (2048, 3072, 4096, 8192):
        return rsa.generate_private_key(public_exponent=65537, key_size=size)
    if algorithm == "ECDSA" and size in CURVES:
        return ec.generate_private_key(CURVES[size])
    raise PkiError(f"unsupported private key {algorithm} size {size}")


def issue(request: CertRequest, now: datetime, issuer: Issued | None = None) -> Issued:
    """Issue a certificate with a fresh key: signed by `issuer` (a CA's cert and key), else self-signed."""
    key = generate_key(request.key_algorithm, request.key_size)
    subject = _name(request)
    if issuer is None:
        signer_key, issuer_name, issuer_public = key, subject, key.public_key()
    else:
        ca_cert = x509.load_pem_x509_certificate(issuer.cert_pem)
        signer_key = _load_key(issuer.key_pem)
        issuer_name, issuer_public = ca_cert.subject, ca_cert.public_key()
    not_before = request.not_before or now
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(not_before)
        .not_valid_after(not_before + request.duration)
        .add_extension(x509.BasicConstraints(ca=request.is_ca, path_length=None), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_public), critical=False)  # type: ignore[arg-type]
    )
    for extension, critical in _usage_extensions(request):
        builder = builder.add_extension(extension, critical=critical)
    sans = [x509.DNSName(n) for n in request.dns_names] + [
        x509.IPAddress(ipaddress.ip_address(a)) for a in request.ip_addresses
    ]
    if sans:
        # With an empty subject the SANs are the identity, and RFC 5280 wants them critical.
        builder = builder.add_extension(x509.SubjectAlternativeName(sans), critical=not list(subject))
    algorithm = None if isinstance(signer_key, ed25519.Ed25519PrivateKey) else hashes.SHA256()
    cert = builder.sign(signer_key, algorithm)  # type: ignore[arg-type]
    return Issued(cert.public_bytes(serialization.Encoding.PEM), _key_pem(key))


def jwt_keys() -> JwtKeys:
    """An Ed25519 keypair; the kid is the first 16 bytes of SHA-256 over the SPKI DER, in hex (as upstream)."""
    key = ed25519.Ed25519PrivateKey.generate()
    public = key.public_key()
    spki = public.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return JwtKeys(
        signing_pem=_key_pem(key),
        public_pem=public.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo),
        kid=hashlib.sha256(spki).digest()[:16].hex(),
    )


def certgen_bundle(server_sans: list[str] | tuple[str, ...]) -> CertgenBundle:
    """What `generate-certs` makes: an ECDSA P-256 CA (O=openshell, CN=openshell-ca), a server certificate
    for exactly `server_sans` and a client certificate (CN=openshell-client, OU=openshell-user), both
    signed by the CA and valid 1975-4096 as upstream's, and a JWT keypair."""
    base = CertRequest(
        key_algorithm="ECDSA", not_before=CERTGEN_NOT_BEFORE, duration=CERTGEN_NOT_AFTER - CERTGEN_NOT_BEFORE
    )
    ca = issue(
        replace(
            base,
            common_name="openshell-ca",
            organization="openshell",
            is_ca=True,
            usages=("digital signature", "cert sign", "crl sign"),
        ),
        CERTGEN_NOT_BEFORE,
    )
    dns, ips = split_sans(server_sans)
    server = issue(
        replace(
            base,
            common_name="openshell-server",
            dns_names=dns,
            ip_addresses=ips,
            usages=("digital signature", "key encipherment", "server auth"),
        ),
        CERTGEN_NOT_BEFORE,
        ca,
    )
    client = issue(
        replace(
            base,
            common_name="openshell-client",
            organizational_unit="openshell-user",
            usages=("digital signature", "key encipherment", "client auth"),
        ),
        CERTGEN_NOT_BEFORE,
        ca,
    )
    return CertgenBundle(ca=ca, server=server, client=client, jwt=jwt_keys())


def _name(request: CertRequest) -> x509.Name:
    attributes = [
        (NameOID.ORGANIZATION_NAME, request.organization),
        (NameOID.ORGANIZATIONAL_UNIT_NAME, request.organizational_unit),
        (NameOID.COMMON_NAME, request.common_name),
    ]
    return x509.Name([x509.NameAttribute(oid, value) for oid, value in attributes if value])


def _usage_extensions(request: CertRequest) -> list[tuple[x509.ExtensionType, bool]]:
    unknown = [u for u in request.usages if u not in KEY_USAGES and u not in EXTENDED_KEY_USAGES]
    if unknown:
        raise PkiError(f"unsupported usages {unknown}")
    flags = {flag: False for flag in set(KEY_USAGES.values())}
    for usage in request.usages:
        if usage in KEY_USAGES:
            flags[KEY_USAGES[usage]] = True
    if request.is_ca:
        flags["key_cert_sign"] = True  # as cert-manager: a CA can always sign certificates
    extensions: list[tuple[x509.ExtensionType, bool]] = []
    if any(flags.values()):
        extensions.append((x509.KeyUsage(**flags), True))
    extended = [EXTENDED_KEY_USAGES[u] for u in request.usages if u in EXTENDED_KEY_USAGES]
    if extended:
        extensions.append((x509.ExtendedKeyUsage(extended), False))
    return extensions


def _load_key(pem: bytes) -> PrivateKey:
    key = serialization.load_pem_private_key(pem, password=None)
    if not isinstance(key, rsa.RSAPrivateKey | ec.EllipticCurvePrivateKey | ed25519.Ed25519PrivateKey):
        raise PkiError(f"unsupported CA key type {type(key).__name__}")
    return key


def _key_pem(key: PrivateKey) -> bytes:
    pkcs8 = serialization.PrivateFormat.PKCS8
    return key.private_bytes(serialization.Encoding.PEM, pkcs8, serialization.NoEncryption())
