"""A small OCI distribution client on ``requests``: resolve a tag, pull manifests, config, layers and signatures.

Every byte is checked against the digest that named it. Plain HTTP is spoken only to loopback
registries; TLS may trust an extra CA bundle. Basic and bearer-token challenges are answered, and the
answers are remembered by the process (``oci_auth_cache``), so resolving an unchanged tag is one
request to the registry. A 429 (or 503) carries its ``Retry-After`` on the error. All failures are
``oci_errors`` exceptions whose messages never include credentials.
"""

from __future__ import annotations

import base64
import hashlib
import json
import ssl
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import requests
from requests.adapters import HTTPAdapter

from workers.drivers.cosign import (
    SIMPLE_SIGNING,
    SignatureInvalid,
    SignedPayload,
    parse_signature_manifest,
    signature_tag,
)
from workers.drivers.errors import sanitise
from workers.drivers.oci_auth import Challenge, Credentials, parse_challenge, realm_allowed, registry_scheme
from workers.drivers.oci_auth_cache import AUTH_CACHE, Remembered, cache_key, token_expiry
from workers.drivers.oci_errors import (
    DigestMismatch,
    ImageNotFound,
    InvalidImage,
    RegistryError,
    RegistryServerError,
    RegistryUnauthorized,
    RegistryUnreachable,
    TooLarge,
)
from workers.drivers.oci_manifest import (
    ACCEPT_MANIFESTS,
    INDEX_TYPES,
    SHA256_DIGEST,
    Descriptor,
    ImageManifest,
    load_document,
    media_type_of,
    parse_image_manifest,
    select_platform,
)
from workers.drivers.retry_after import parse_retry_after

__all__ = ["Credentials", "PullLimits", "PulledImage", "RegistryClient"]

MAX_MANIFEST_BYTES = 4 * 1024 * 1024
MAX_CONFIG_BYTES = 8 * 1024 * 1024
MAX_PAYLOAD_BYTES = 64 * 1024
CHUNK_BYTES = 1024 * 1024
# Statuses whose Retry-After says when to come back (RFC 9110 defines it for both).
THROTTLED = {429: "is rate-limiting requests", 503: "is unavailable"}


@dataclass(frozen=True)
class PullLimits:
    max_layer_bytes: int
    max_layers: int = 128


@dataclass(frozen=True)
class PulledImage:
    """A pulled image: the manifest's digest, its config labels, and the layer files in order."""

    manifest_digest: str
    labels: dict[str, str]
    layers: tuple[Path, ...]


class _CustomCAAdapter(HTTPAdapter):
    """Verifies TLS with the system trust store plus an in-memory CA bundle (nothing written to disk)."""

    def __init__(self, ca_pem: str) -> None:
        self._context = ssl.create_default_context()
        self._context.load_verify_locations(cadata=ca_pem)
        super().__init__()

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        kwargs["ssl_context"] = self._context
        super().init_poolmanager(*args, **kwargs)


class RegistryClient:
    """Talks to one repository of one registry. Use as a context manager to close connections."""

    def __init__(
        self,
        registry: str,
        repository: str,
        *,
        credentials: Credentials | None = None,
        ca_pem: str = "",
        timeout: float = 30.0,
    ) -> None:
        self.repository = repository
        self.base = f"{registry_scheme(registry, has_ca=bool(ca_pem))}://{registry}/v2/{repository}"
        self.credentials = credentials
        self.timeout = timeout
        self.session = requests.Session()
        self.session.trust_env = False
        if ca_pem:
            self.session.mount("https://", _CustomCAAdapter(ca_pem))
        self._auth_key = cache_key(self.base, credentials)
        self._authorization: str | None = None
        self._recalled = False

    def __enter__(self) -> RegistryClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.session.close()

    # -- public calls -----------------------------------------------------------------------

    def resolve(self, reference: str) -> str:
        """The manifest digest a tag (or digest) currently names, from a HEAD, else a GET."""
        response = self._send("HEAD", f"/manifests/{reference}", headers={"Accept": ACCEPT_MANIFESTS})
        digest = response.headers.get("Docker-Content-Digest", "")
        if SHA256_DIGEST.match(digest):
            return digest
        body, _ = self._get_manifest(reference)
        return "sha256:" + hashlib.sha256(body).hexdigest()

    def pull(self, digest: str, dest: Path, limits: PullLimits) -> PulledImage:
        """Fetch the image named by ``digest`` (index or manifest): config and every layer into ``dest``."""
        manifest = self._image_manifest(digest)
        if len(manifest.layers) > limits.max_layers:
            raise TooLarge(f"image has {len(manifest.layers)} layers; the limit is {limits.max_layers}")
        config = self._config(manifest.config)
        layers = tuple(self._download(layer, dest, limits.max_layer_bytes) for layer in manifest.layers)
        labels = (config.get("config") or {}).get("Labels") or {}
        if not isinstance(labels, dict):
            raise InvalidImage("image config labels are not an object")
        return PulledImage(manifest_digest=digest, labels={str(k): str(v) for k, v in labels.items()}, layers=layers)

    def signatures(self, digest: str) -> tuple[SignedPayload, ...]:
        """The cosign signatures stored for ``digest`` (its ``sha256-<hex>.sig`` tag): none when there is no tag."""
        try:
            body, _ = self._get_manifest(signature_tag(digest))
        except ImageNotFound:
            return ()
        signed = []
        for layer in parse_signature_manifest(body):
            if layer.size > MAX_PAYLOAD_BYTES:
                raise SignatureInvalid(
                    f"signed payload {layer.digest} is {layer.size} bytes; the limit is {MAX_PAYLOAD_BYTES}"
                )
            payload = self._small_blob(
                Descriptor(SIMPLE_SIGNING, layer.digest, layer.size), MAX_PAYLOAD_BYTES, "signed payload"
            )
            signed.append(SignedPayload(payload=payload, signature=layer.signature))
        return tuple(signed)

    # -- manifests, config, blobs -----------------------------------------------------------

    def _image_manifest(self, digest: str) -> ImageManifest:
        body, content_type = self._verified_manifest(digest)
        document = load_document(body)
        if media_type_of(document, content_type) in INDEX_TYPES:
            chosen = select_platform(document)
            body, content_type = self._verified_manifest(chosen.digest)
            document = load_document(body)
            if media_type_of(document, content_type) in INDEX_TYPES:
                raise InvalidImage("nested image indexes are not supported")
        return parse_image_manifest(document)

    def _verified_manifest(self, digest: str) -> tuple[bytes, str]:
        body, content_type = self._get_manifest(digest)
        actual = "sha256:" + hashlib.sha256(body).hexdigest()
        if actual != digest:
            raise DigestMismatch(f"manifest {digest} hashed to {actual}")
        return body, content_type

    def _get_manifest(self, reference: str) -> tuple[bytes, str]:
        response = self._send("GET", f"/manifests/{reference}", headers={"Accept": ACCEPT_MANIFESTS}, stream=True)
        with response:
            body = self._read_capped(response, MAX_MANIFEST_BYTES, f"manifest {reference}")
        return body, response.headers.get("Content-Type", "")

    def _config(self, descriptor: Descriptor) -> dict[str, Any]:
        if descriptor.size > MAX_CONFIG_BYTES:
            raise TooLarge(f"image config is {descriptor.size} bytes; the limit is {MAX_CONFIG_BYTES}")
        body = self._small_blob(descriptor, MAX_CONFIG_BYTES, "image config")
        try:
            config = json.loads(body)
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise InvalidImage("image config is not JSON") from None
        if not isinstance(config, dict):
            raise InvalidImage("image config is not a JSON object")
        return config

    def _small_blob(self, descriptor: Descriptor, limit: int, what: str) -> bytes:
        """A blob read whole into memory (at most ``limit`` bytes) and checked against its descriptor."""
        response = self._send("GET", f"/blobs/{descriptor.digest}", stream=True)
        with response:
            body = self._read_capped(response, limit, what)
        _check_blob(descriptor, hashlib.sha256(body).hexdigest(), len(body))
        return body

    def _download(self, descriptor: Descriptor, dest: Path, max_bytes: int) -> Path:
        if descriptor.size > max_bytes:
            raise TooLarge(f"layer {descriptor.digest} is {descriptor.size} bytes; the limit is {max_bytes}")
        path = dest / (descriptor.digest.replace(":", "-") + ".layer")
        hasher, written = hashlib.sha256(), 0
        response = self._send("GET", f"/blobs/{descriptor.digest}", stream=True)
        with response, path.open("wb") as out:
            try:
                for chunk in response.iter_content(CHUNK_BYTES):
                    written += len(chunk)
                    if written > descriptor.size:
                        break
                    hasher.update(chunk)
                    out.write(chunk)
            except requests.RequestException as exc:
                raise RegistryUnreachable(f"download of {descriptor.digest} failed: {type(exc).__name__}") from None
        _check_blob(descriptor, hasher.hexdigest(), written)
        return path

    @staticmethod
    def _read_capped(response: requests.Response, limit: int, what: str) -> bytes:
        chunks, total = [], 0
        try:
            for chunk in response.iter_content(CHUNK_BYTES):
                total += len(chunk)
                if total > limit:
                    raise TooLarge(f"{what} exceeds {limit} bytes")
                chunks.append(chunk)
        except requests.RequestException as exc:
            raise RegistryUnreachable(f"reading {what} failed: {type(exc).__name__}") from None
        return b"".join(chunks)

    # -- transport and authentication -------------------------------------------------------

    def _send(
        self, method: str, path: str, *, headers: dict[str, str] | None = None, stream: bool = False
    ) -> requests.Response:
        url = self.base + path
        if not self._recalled:
            self._recalled = True
            self._authorization = self._recall()
        response = self._raw(method, url, headers or {}, stream)
        if response.status_code == 401:
            response.close()
            self._authenticate(response.headers.get("WWW-Authenticate", ""))
            response = self._raw(method, url, headers or {}, stream)
        if response.status_code >= 300:
            response.close()
            raise self._status_error(response, f"{method} {path}")
        return response

    def _raw(self, method: str, url: str, headers: dict[str, str], stream: bool) -> requests.Response:
        if self._authorization:
            headers = {**headers, "Authorization": self._authorization}
        try:
            return self.session.request(method, url, headers=headers, stream=stream, timeout=self.timeout)
        except requests.exceptions.SSLError as exc:
            raise RegistryUnreachable(f"TLS failure talking to the registry: {self._clean(exc)}") from None
        except requests.RequestException as exc:
            raise RegistryUnreachable(f"registry unreachable: {type(exc).__name__}: {self._clean(exc)}") from None

    def _recall(self) -> str | None:
        """The authorization this process last used for this repository and credentials, renewed if expired.

        A renewal that fails gives None: the registry's own challenge then says where to ask (it may have moved)."""
        entry = AUTH_CACHE.get(self._auth_key)
        if entry is None:
            return None
        if entry.fresh(time.monotonic()):
            return entry.authorization
        if entry.challenge.scheme != "bearer":
            return None
        try:
            return self._bearer(entry.challenge)
        except RegistryError:
            return None

    def _authenticate(self, header: str) -> None:
        challenge = parse_challenge(header)
        if challenge.scheme == "basic" and self.credentials:
            pair = f"{self.credentials.username}:{self.credentials.password}".encode()
            self._authorization = "Basic " + base64.b64encode(pair).decode()
            AUTH_CACHE.put(self._auth_key, Remembered(challenge, self._authorization, expires_at=None))
        elif challenge.scheme == "bearer":
            self._authorization = self._bearer(challenge)
        else:
            raise RegistryUnauthorized("the registry requires credentials and none were given", status=401)

    def _bearer(self, challenge: Challenge) -> str:
        """A fresh token for ``challenge``, remembered for its lifetime."""
        fetched_at = time.monotonic()
        token, expires_in = self._fetch_token(challenge)
        authorization = f"Bearer {token}"
        AUTH_CACHE.put(self._auth_key, Remembered(challenge, authorization, token_expiry(expires_in, fetched_at)))
        return authorization

    def _fetch_token(self, challenge: Challenge) -> tuple[str, object]:
        """The token and its ``expires_in`` as the token service gave it."""
        realm = challenge.params.get("realm", "")
        if not realm_allowed(realm):
            raise RegistryUnauthorized("token realm must use HTTPS (or plain HTTP on loopback)", status=401)
        params = {"scope": challenge.params.get("scope") or f"repository:{self.repository}:pull"}
        if challenge.params.get("service"):
            params["service"] = challenge.params["service"]
        auth = (self.credentials.username, self.credentials.password) if self.credentials else None
        try:
            response = self.session.get(realm, params=params, auth=auth, timeout=self.timeout)
        except requests.RequestException as exc:
            raise RegistryUnreachable(f"token service unreachable: {type(exc).__name__}") from None
        if response.status_code in (401, 403):
            raise RegistryUnauthorized("the token service rejected the credentials", status=response.status_code)
        if response.status_code != 200:
            raise self._server_error(response, "token request", "token service")
        try:
            body = response.json()
        except ValueError:
            raise RegistryServerError("token service answered with something other than JSON") from None
        token = body.get("token") or body.get("access_token") if isinstance(body, dict) else None
        if not isinstance(token, str) or not token:
            raise RegistryServerError("token service answer has no token")
        return token, body.get("expires_in")

    def _status_error(self, response: requests.Response, what: str) -> Exception:
        status = response.status_code
        if status in (401, 403):
            return RegistryUnauthorized(f"{what}: the registry denied access ({status})", status=status)
        if status == 404:
            return ImageNotFound(f"{what}: not found in {self.repository}", status=status)
        return self._server_error(response, what, "registry")

    @staticmethod
    def _server_error(response: requests.Response, what: str, who: str) -> RegistryServerError:
        """A 5xx or 429; a throttling status carries the wait its Retry-After asked for."""
        status = response.status_code
        if status not in THROTTLED:
            return RegistryServerError(f"{what}: the {who} answered {status}", status=status)
        wait = parse_retry_after(response.headers.get("Retry-After"), datetime.now(UTC))
        asked = f"; it asked to wait {wait:.0f} s (Retry-After)" if wait is not None else ""
        return RegistryServerError(
            f"{what}: the {who} {THROTTLED[status]} ({status}){asked}", status=status, retry_after=wait
        )

    def _clean(self, exc: Exception) -> str:
        secrets = [self.credentials.password] if self.credentials else []
        return sanitise(str(exc), secrets)[:300]


def _check_blob(descriptor: Descriptor, hexdigest: str, size: int) -> None:
    if size != descriptor.size:
        raise DigestMismatch(f"blob {descriptor.digest} is {size} bytes, the manifest says {descriptor.size}")
    if f"sha256:{hexdigest}" != descriptor.digest:
        raise DigestMismatch(f"blob {descriptor.digest} hashed to sha256:{hexdigest}")
