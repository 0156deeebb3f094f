"""Verify a release before it is Ready: what its gateways will run is what its signature policy trusts.

- An ``oci://`` chart and both images are resolved to digests, and each digest's cosign signature
  (``sha256-<hex>.sig`` in the same repository) must verify with one policy key and name that digest.
- A local chart (a directory or a ``.tgz``) must hash, packaged, to ``chart_digest``; the archive that was hashed is
  kept under ``HELM_HOME/charts/verified``, and that archive is what is installed.
- A registry that cannot be reached (or answers 5xx, 429 or 401/403) is ``RegistryUnavailable``: the release stays
  Pending and is verified again later, never passed. Anything else wrong is ``VerificationFailed``, naming the
  artefact and why, and the release is Invalid.

The catalogs' registry client and cosign verifier do the registry and signature work; this module decides what to
check (``artefacts_to_verify``, pure) and runs the checks through an injected client opener.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from django.conf import settings

from controlplane.imageref import InvalidImageRefError, parse_image_ref
from controlplane.signing_keys import keys_fingerprint
from gateways.release_trust import is_oci
from gateways.states import VerifiedArtefact
from workers import singletons
from workers.drivers.cosign import PublicKey, SignatureInvalid, SignedPayload, key_fingerprint, load_public_keys
from workers.drivers.cosign import verify_signatures as cosign_verify
from workers.drivers.errors import DriverError
from workers.drivers.oci import RegistryClient
from workers.drivers.oci_errors import RegistryServerError, RegistryUnauthorized, RegistryUnreachable

__all__ = [
    "Artefact",
    "RegistryUnavailable",
    "VerificationFailed",
    "artefacts_to_verify",
    "chart_pinned",
    "needs_reverification",
    "needs_verification",
    "reverify_release",
    "verified_chart_archive",
    "verify_release",
]

# Failures that say nothing about the artefact: the registry is down, busy or refused us. Retried, never a verdict.
UNAVAILABLE = (RegistryUnreachable, RegistryServerError, RegistryUnauthorized)


class VerificationFailed(Exception):
    """An artefact of the release is not what its policy trusts (the release is Invalid)."""


class RegistryUnavailable(Exception):
    """The registry could not answer: the release stays Pending and is verified again later."""


@dataclass(frozen=True)
class Artefact:
    """One signed artefact: which of the release's it is, where it lives, and the tag or digest it is named by."""

    kind: VerifiedArtefact
    registry: str
    repository: str
    reference: str  # a tag, or sha256:<hex> when pinned
    shown: str  # as the release names it, for messages

    @property
    def pinned(self) -> bool:
        return self.reference.startswith("sha256:")


class Registry(Protocol):
    def resolve(self, reference: str) -> str: ...
    def signatures(self, digest: str) -> tuple[SignedPayload, ...]: ...
    def __enter__(self) -> Registry: ...
    def __exit__(self, *exc: object) -> None: ...


OpenRegistry = Callable[[str, str], Registry]


def needs_verification(release: Any) -> bool:
    return bool(release.signature_keys or release.chart_digest)


def _image_artefact(kind: VerifiedArtefact, reference: str) -> Artefact:
    try:
        ref = parse_image_ref(reference)
    except InvalidImageRefError as exc:
        raise VerificationFailed(f"{kind} {reference}: {exc}") from None
    if not ref.registry:
        raise VerificationFailed(f"{kind} {reference}: names no registry, so its signature cannot be looked up")
    return Artefact(kind, ref.registry, ref.repository, ref.digest or ref.tag or "latest", reference)


def _chart_artefact(chart: str, version: str) -> Artefact:
    """``oci://host/path/name`` with a version (a tag, ``+`` written ``_`` as helm pushes it) or ``@sha256:...``."""
    location, _, digest = chart.removeprefix("oci://").partition("@")
    registry, _, repository = location.partition("/")
    reference = digest or version.replace("+", "_")
    shown = chart if digest else f"{chart}:{version}"
    return Artefact(VerifiedArtefact.CHART, registry, repository, reference, shown)


def artefacts_to_verify(release: Any) -> tuple[Artefact, ...]:
    """The signed artefacts of a release with a signature policy: its oci:// chart, then its two images."""
    if not release.signature_keys:
        return ()
    chart = (_chart_artefact(release.chart, release.version),) if is_oci(release.chart) else ()
    return (
        *chart,
        _image_artefact(VerifiedArtefact.IMAGE, release.image),
        _image_artefact(VerifiedArtefact.SUPERVISOR_IMAGE, release.supervisor_image),
    )


def _verify_signed(artefact: Artefact, keys: Sequence[PublicKey], open_registry: OpenRegistry) -> tuple[str, str]:
    """The artefact's digest and the fingerprint of the key that verified its signature."""
    try:
        with open_registry(artefact.registry, artefact.repository) as registry:
            digest = artefact.reference if artefact.pinned else registry.resolve(artefact.reference)
            key = cosign_verify(registry.signatures(digest), keys, digest)
    except UNAVAILABLE as exc:
        raise RegistryUnavailable(f"{artefact.kind} {artefact.shown}: {exc}") from None
    except (SignatureInvalid, DriverError) as exc:
        raise VerificationFailed(f"{artefact.kind} {artefact.shown}: {exc}") from None
    return digest, key_fingerprint(key)


def _sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as archive:
        for chunk in iter(lambda: archive.read(1024 * 1024), b""):
            digest.update(chunk)
    return "sha256:" + digest.hexdigest()


def _verified_dir() -> Path:
    return Path(settings.HELM_HOME) / "charts" / "verified"


def verified_chart_archive(chart: str, chart_digest: str) -> Path:
    """The local chart, packaged, as an archive that hashes to ``chart_digest`` (kept: later loads reuse it).

    A directory is packaged as ``helm package`` packs it; a ``.tgz`` is taken as it is."""
    kept = _verified_dir() / (chart_digest.replace(":", "-") + ".tgz")
    if kept.is_file() and _sha256_file(kept) == chart_digest:
        return kept
    source = Path(chart)
    kept.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=kept.parent) as scratch:
        try:
            archive = singletons.helm().package(source, Path(scratch)) if source.is_dir() else source
            copy = Path(scratch) / "verified.tgz"
            shutil.copyfile(archive, copy)  # hashed as copied: a chart changed meanwhile cannot slip in
        except (OSError, DriverError) as exc:
            raise VerificationFailed(f"chart {chart}: cannot be packaged or read: {exc}") from None
        actual = _sha256_file(copy)
        if actual != chart_digest:
            raise VerificationFailed(
                f"chart {chart}: its packaged digest is {actual}, not the chart_digest {chart_digest}"
            )
        copy.replace(kept)
    return kept


def chart_pinned(release: Any, verified: dict[str, str] | None = None) -> tuple[str, str | None]:
    """The chart reference and version a worker loads for the release: the verified archive or digest, if any
    (``verified``: its verified digests, by default those recorded on it)."""
    verified = release.verified_digests if verified is None else verified
    digest = (verified or {}).get(VerifiedArtefact.CHART)
    if not digest:
        return release.chart, release.version or None
    if is_oci(release.chart):
        return f"{release.chart.partition('@')[0]}@{digest}", None
    return str(verified_chart_archive(release.chart, digest)), None


def _policy_keys(release: Any) -> tuple[PublicKey, ...]:
    try:
        return load_public_keys(release.signature_keys)
    except SignatureInvalid as exc:
        raise VerificationFailed(f"signature_policy: {exc}") from None


def needs_reverification(release: Any) -> bool:
    """A verified release whose keys changed since: what it pinned is checked again with the new keys."""
    verified = release.verified_digests or {}
    return bool(release.signature_keys and verified.get(VerifiedArtefact.KEYS)) and (
        verified[VerifiedArtefact.KEYS] != keys_fingerprint(release.signature_keys)
    )


def reverify_release(release: Any, now: datetime, open_registry: OpenRegistry | None = None) -> dict[str, str]:
    """Check the signatures of the digests the release pinned (never what its tags name now) with its current keys;
    its new ``verified_digests``. Raises VerificationFailed or RegistryUnavailable."""
    open_registry = open_registry or _open_registry
    keys, verified = _policy_keys(release), dict(release.verified_digests)
    for artefact in artefacts_to_verify(release):
        pinned = replace(artefact, reference=verified[artefact.kind])
        verified[artefact.kind], verified[VerifiedArtefact.KEY] = _verify_signed(pinned, keys, open_registry)
    verified[VerifiedArtefact.KEYS] = keys_fingerprint(release.signature_keys)
    verified[VerifiedArtefact.VERIFIED_AT] = now.isoformat()
    return verified


def verify_release(release: Any, now: datetime, open_registry: OpenRegistry | None = None) -> dict[str, str]:
    """Verify the release's chart and images; its ``verified_digests``. Raises VerificationFailed or
    RegistryUnavailable."""
    open_registry = open_registry or _open_registry
    verified: dict[str, str] = {}
    if release.signature_keys:
        keys = _policy_keys(release)
        for artefact in artefacts_to_verify(release):
            verified[artefact.kind], verified[VerifiedArtefact.KEY] = _verify_signed(artefact, keys, open_registry)
    if release.chart_digest:
        verified_chart_archive(release.chart, release.chart_digest)
        verified[VerifiedArtefact.CHART] = release.chart_digest
    if release.signature_keys:
        verified[VerifiedArtefact.KEYS] = keys_fingerprint(release.signature_keys)
    verified[VerifiedArtefact.VERIFIED_AT] = now.isoformat()
    return verified


def _open_registry(registry: str, repository: str) -> Registry:
    return RegistryClient(registry, repository, timeout=settings.CATALOG_REGISTRY_TIMEOUT_SECONDS)
