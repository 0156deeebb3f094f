"""The PKI player: a process beside devcluster that plays what would run in a real cluster to make TLS Secrets.

- **certgen**: for each Job whose container runs `generate-certs` (the OpenShell chart's pre-install hook), it
  creates the Secrets that `openshell-gateway generate-certs` would, with its idempotency: all present, skip;
  server and client present, add the JWT Secret; none present, create all; some present, refuse (upstream
  fails the hook with a recovery hint; here it is logged). It acts on the Job object, never on a pod.
- **cert-manager**: for each `cert-manager.io/v1` Certificate whose Secret is missing and whose Issuer or
  ClusterIssuer can issue (`selfSigned`, or `ca` with its CA Secret present), it issues the certificate.
  Certificate status is left to devcluster's status controller.

    python -m devcluster play-pki --kubeconfig PATH [--interval 0.1]

Each tick lists Jobs (one request); the cert-manager pass runs only when the list's resourceVersion (global
in devcluster) has moved, so an idle cluster costs one small request per tick.
"""

from __future__ import annotations

import base64
import enum
import json
import logging
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from devcluster import pki

__all__ = [
    "CertgenAction",
    "CertgenArgs",
    "KubeApi",
    "PkiPlayer",
    "certgen_args",
    "certificate_request",
    "decide_certgen",
]

log = logging.getLogger("devcluster.pki_player")

CERTGEN_COMMAND = "generate-certs"
CLUSTER_RESOURCE_NAMESPACE = "cert-manager"  # where a ClusterIssuer's CA Secret lives, as cert-manager's default
CERT_MANAGER = "/apis/cert-manager.io/v1"
REQUEST_TIMEOUT_SECONDS = 10.0
USER_AGENT = "devcluster-pki-player"  # tests leave the player's requests out of the request log they read


# A watch is reopened this often, so that a stop is noticed.
JOB_WATCH_SECONDS = 5


class ApiError(RuntimeError):
    """An unexpected answer from the API server."""


@dataclass(frozen=True)
class KubeApi:
    """JSON over HTTP with the kubeconfig's server and bearer token."""

    server: str
    token: str

    @classmethod
    def from_kubeconfig(cls, path: Path) -> KubeApi:
        config = yaml.safe_load(path.read_text())
        context = next(c["context"] for c in config["contexts"] if c["name"] == config["current-context"])
        cluster = next(c["cluster"] for c in config["clusters"] if c["name"] == context["cluster"])
        user = next(u["user"] for u in config["users"] if u["name"] == context["user"])
        return cls(cluster["server"].rstrip("/"), user.get("token", ""))

    def get(self, path: str) -> dict[str, Any] | None:
        """The object at `path`, or None when it does not exist (or its API is not served)."""
        try:
            return self._call("GET", path)
        except urllib.error.HTTPError as exc:
            if exc.code == 404:
                return None
            raise ApiError(f"GET {path}: {exc.code}") from exc

    def create(self, path: str, body: dict[str, Any]) -> bool:
        """POST `body`; False when an object of that name already exists."""
        try:
            self._call("POST", path, body)
        except urllib.error.HTTPError as exc:
            if exc.code == 409:
                return False
            raise ApiError(f"POST {path}: {exc.code} {exc.read().decode(errors='replace')}") from exc
        return True

    def watch(self, path: str, timeout: float) -> Iterator[dict[str, Any]]:
        """The events of a watch on `path` (with its query), one JSON line each, until the server ends it."""
        request = self._request("GET", path, None)
        with urllib.request.urlopen(request, timeout=timeout + REQUEST_TIMEOUT_SECONDS) as response:
            for line in response:
                if line.strip():
                    yield dict(json.loads(line))

    def _request(self, method: str, path: str, data: bytes | None) -> urllib.request.Request:
        request = urllib.request.Request(self.server + path, data=data, method=method)
        request.add_header("Accept", "application/json")
        request.add_header("User-Agent", USER_AGENT)
        if self.token:
            request.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        return request

    def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        data = None if body is None else json.dumps(body).encode()
        with urllib.request.urlopen(self._request(method, path, data), timeout=REQUEST_TIMEOUT_SECONDS) as response:
            return dict(json.loads(response.read() or b"{}"))


@dataclass(frozen=True)
class CertgenArgs:
    """The arguments of one `generate-certs` run (Kubernetes mode)."""

    jwt_secret: str
    server_secret: str = ""
    client_secret: str = ""
    jwt_only: bool = False
    server_sans: tuple[str, ...] = ()


def certgen_args(job: dict[str, Any]) -> CertgenArgs | None:
    """The `generate-certs` arguments of a Job's container, or None when the Job runs something else."""
    for container in job.get("spec", {}).get("template", {}).get("spec", {}).get("containers", []):
        args = list(container.get("args") or [])
        if args[:1] == [CERTGEN_COMMAND]:
            return _parse_certgen(args[1:])
    return None


def _parse_certgen(args: list[str]) -> CertgenArgs | None:
    values: dict[str, str] = {}
    sans: list[str] = []
    jwt_only = False
    rest = iter(args)
    for arg in rest:
        if arg == "--jwt-only":
            jwt_only = True
            continue
        name, has_value, value = arg.partition("=")
        if not has_value:
            value = next(rest, "")
        if name == "--server-san":
            sans.append(value)
        else:
            values[name] = value
    jwt = values.get("--jwt-secret-name", "")
    server, client = values.get("--server-secret-name", ""), values.get("--client-secret-name", "")
    if not jwt or (not jwt_only and not (server and client)):
        return None  # upstream's argument parser refuses this; the Job would fail
    return CertgenArgs(jwt, server, client, jwt_only, tuple(sans))


class CertgenAction(enum.Enum):
    """What `generate-certs` does given which of its Secrets exist."""

    SKIP = "all secrets exist, skipped"
    CREATE_JWT = "created the JWT secret"
    CREATE_ALL = "created the CA-signed server and client secrets and the JWT secret"
    PARTIAL = "partial state, refused"


def decide_certgen(exists: tuple[bool, ...]) -> CertgenAction:
    """Upstream's rule over (server, client, jwt) existence, or (jwt,) alone in `--jwt-only` mode."""
    if all(exists):
        return CertgenAction.SKIP
    if exists[:-1] == (True,) * (len(exists) - 1):
        return CertgenAction.CREATE_JWT  # --jwt-only, or TLS from an older install without the JWT secret
    if not any(exists):
        return CertgenAction.CREATE_ALL
    return CertgenAction.PARTIAL


def certificate_request(spec: dict[str, Any]) -> pki.CertRequest:
    """The certificate a cert-manager Certificate spec asks for (cert-manager's defaults where unset)."""
    private_key = spec.get("privateKey") or {}
    return pki.CertRequest(
        common_name=spec.get("commonName", ""),
        dns_names=tuple(spec.get("dnsNames") or ()),
        ip_addresses=tuple(spec.get("ipAddresses") or ()),
        is_ca=bool(spec.get("isCA")),
        usages=tuple(spec.get("usages") or pki.DEFAULT_USAGES),
        duration=pki.parse_duration(spec["duration"]) if spec.get("duration") else pki.DEFAULT_DURATION,
        key_algorithm=private_key.get("algorithm") or "RSA",
        key_size=private_key.get("size"),
    )


def secret(name: str, kind: str, data: dict[str, bytes], annotations: dict[str, str] | None = None) -> dict[str, Any]:
    """A Secret manifest with base64-encoded data."""
    metadata: dict[str, Any] = {"name": name}
    if annotations:
        metadata["annotations"] = annotations
    encoded = {key: base64.b64encode(value).decode() for key, value in data.items()}
    return {"apiVersion": "v1", "kind": "Secret", "metadata": metadata, "type": kind, "data": encoded}


def tls_secret(
    name: str, issued: pki.Issued, ca_pem: bytes, annotations: dict[str, str] | None = None
) -> dict[str, Any]:
    """A kubernetes.io/tls Secret: the certificate, its key and the issuing CA."""
    data = {"tls.crt": issued.cert_pem, "tls.key": issued.key_pem, "ca.crt": ca_pem}
    return secret(name, "kubernetes.io/tls", data, annotations)


def _decoded(obj: dict[str, Any], key: str) -> bytes | None:
    value = (obj.get("data") or {}).get(key)
    return base64.b64decode(value) if value else None


class PkiPlayer:
    """Polls the API and creates the Secrets certgen hooks and cert-manager would."""

    def __init__(self, api: KubeApi) -> None:
        self.api = api
        self.seen_jobs: set[str] = set()
        self.reported: set[tuple[str, str]] = set()
        self.last_version = ""
        self._jobs_lock = threading.Lock()

    def run(self, stop: threading.Event, interval: float) -> None:
        """Tick every `interval` seconds until `stop` is set, and watch Jobs meanwhile (a hook Job that succeeds
        and is deleted between two ticks is still seen); API errors are logged and retried. The Job watch is a
        daemon thread that ends with the process: stopping does not wait out its open watch, as a controller's
        shutdown does not."""
        watcher = threading.Thread(target=self.watch_jobs, args=(stop, interval), name="pki-jobs", daemon=True)
        watcher.start()
        while not stop.is_set():
            try:
                self.tick()
            except (ApiError, OSError) as exc:
                log.warning("pass failed, retrying: %s", exc)
            stop.wait(interval)

    def tick(self) -> None:
        jobs = self.api.get("/apis/batch/v1/jobs") or {"items": [], "metadata": {}}
        version = jobs["metadata"].get("resourceVersion", "")
        for job in jobs["items"]:
            self.see_job(job)
        if version != self.last_version:
            self.play_cert_manager()
            self.last_version = version

    def watch_jobs(self, stop: threading.Event, interval: float) -> None:
        """Every Job as it is created, from a list and then a watch resumed from its resourceVersion."""
        version = ""
        while not stop.is_set():
            try:
                if not version:
                    listing = self.api.get("/apis/batch/v1/jobs") or {"items": [], "metadata": {}}
                    for job in listing["items"]:
                        self.see_job(job)
                    version = listing["metadata"].get("resourceVersion", "")
                query = f"watch=1&resourceVersion={version}&timeoutSeconds={JOB_WATCH_SECONDS}"
                for event in self.api.watch(f"/apis/batch/v1/jobs?{query}", JOB_WATCH_SECONDS):
                    if event.get("type") == "ERROR":  # 410 Gone: the history moved on; list again
                        version = ""
                        break
                    job = event.get("object") or {}
                    version = job.get("metadata", {}).get("resourceVersion", version)
                    if event.get("type") in ("ADDED", "MODIFIED"):
                        self.see_job(job)
                    if stop.is_set():
                        return
            except (ApiError, OSError, ValueError) as exc:
                log.warning("job watch failed, listing again: %s", exc)
                version = ""
                stop.wait(interval)

    def see_job(self, job: dict[str, Any]) -> None:
        """Play a certgen hook Job once, whichever of the list and the watch sees it first."""
        uid = job["metadata"]["uid"]
        with self._jobs_lock:
            if uid in self.seen_jobs:
                return
            self.seen_jobs.add(uid)
        if (args := certgen_args(job)) is not None:
            self.play_certgen(job["metadata"]["namespace"], args)

    # ------------------------------------------------------------------ certgen

    def play_certgen(self, namespace: str, args: CertgenArgs) -> None:
        secrets = f"/api/v1/namespaces/{namespace}/secrets"
        names = (args.jwt_secret,) if args.jwt_only else (args.server_secret, args.client_secret, args.jwt_secret)
        action = decide_certgen(tuple(self.api.get(f"{secrets}/{name}") is not None for name in names))
        if action is CertgenAction.PARTIAL:
            log.error("certgen %s: partial PKI state among %s; upstream's hook fails here", namespace, names)
        elif action is CertgenAction.CREATE_JWT:
            self.api.create(secrets, jwt_secret(args.jwt_secret, pki.jwt_keys()))
        elif action is CertgenAction.CREATE_ALL:
            bundle = pki.certgen_bundle(pki.CERTGEN_DEFAULT_SANS + args.server_sans)
            self.api.create(secrets, tls_secret(args.server_secret, bundle.server, bundle.ca.cert_pem))
            self.api.create(secrets, tls_secret(args.client_secret, bundle.client, bundle.ca.cert_pem))
            self.api.create(secrets, jwt_secret(args.jwt_secret, bundle.jwt))
        log.info("certgen %s %s: %s", namespace, names, action.value)

    # ------------------------------------------------------------------ cert-manager

    def play_cert_manager(self) -> None:
        certificates = self.api.get(f"{CERT_MANAGER}/certificates") or {"items": []}
        for certificate in certificates["items"]:
            meta, spec = certificate["metadata"], certificate.get("spec") or {}
            path = f"/api/v1/namespaces/{meta['namespace']}/secrets"
            if not spec.get("secretName") or self.api.get(f"{path}/{spec['secretName']}") is not None:
                continue
            try:
                manifest = self.issue(certificate)
            except pki.PkiError as exc:
                self._report_once(certificate, f"cannot issue: {exc}")
                continue
            if manifest is not None and self.api.create(path, manifest):
                log.info("cert-manager %s/%s: issued %s", meta["namespace"], meta["name"], spec["secretName"])

    def issue(self, certificate: dict[str, Any]) -> dict[str, Any] | None:
        """The Secret for `certificate`, or None while its issuer cannot issue yet."""
        meta, spec = certificate["metadata"], certificate["spec"]
        ref = spec.get("issuerRef") or {}
        kind = ref.get("kind") or "Issuer"
        group = ref.get("group") or "cert-manager.io"
        if group != "cert-manager.io" or kind not in ("Issuer", "ClusterIssuer"):
            self._report_once(certificate, f"issuer {ref} is not cert-manager's; nothing here issues it")
            return None
        if kind == "Issuer":
            issuer = self.api.get(f"{CERT_MANAGER}/namespaces/{meta['namespace']}/issuers/{ref.get('name')}")
            ca_namespace = meta["namespace"]
        else:
            issuer = self.api.get(f"{CERT_MANAGER}/clusterissuers/{ref.get('name')}")
            ca_namespace = CLUSTER_RESOURCE_NAMESPACE
        if issuer is None:
            return None
        issuer_spec = issuer.get("spec") or {}
        request = certificate_request(spec)
        now = datetime.now(UTC)
        if "selfSigned" in issuer_spec:
            issued = pki.issue(request, now)
            ca_pem = issued.cert_pem
        elif "ca" in issuer_spec:
            ca_name = (issuer_spec["ca"] or {}).get("secretName", "")
            ca_secret = self.api.get(f"/api/v1/namespaces/{ca_namespace}/secrets/{ca_name}") if ca_name else None
            ca_cert = _decoded(ca_secret, "tls.crt") if ca_secret else None
            ca_key = _decoded(ca_secret, "tls.key") if ca_secret else None
            if ca_cert is None or ca_key is None:
                return None  # the CA Secret is not there yet: a later pass retries
            issued = pki.issue(request, now, pki.Issued(ca_cert, ca_key))
            ca_pem = ca_cert
        else:
            self._report_once(certificate, f"issuer type {sorted(issuer_spec)} is not played; only selfSigned and ca")
            return None
        annotations = {
            "cert-manager.io/certificate-name": meta["name"],
            "cert-manager.io/issuer-name": ref.get("name", ""),
            "cert-manager.io/issuer-kind": kind,
            "cert-manager.io/issuer-group": "cert-manager.io",
            "cert-manager.io/common-name": request.common_name,
            "cert-manager.io/alt-names": ",".join(request.dns_names),
            "cert-manager.io/ip-sans": ",".join(request.ip_addresses),
        }
        return tls_secret(spec["secretName"], issued, ca_pem, annotations)

    def _report_once(self, certificate: dict[str, Any], message: str) -> None:
        meta = certificate["metadata"]
        key = (meta["uid"], str(meta.get("generation", "")))
        if key not in self.reported:
            self.reported.add(key)
            log.warning("cert-manager %s/%s: %s", meta["namespace"], meta["name"], message)


def jwt_secret(name: str, keys: pki.JwtKeys) -> dict[str, Any]:
    """The Opaque JWT Secret `generate-certs` writes."""
    return secret(
        name, "Opaque", {"signing.pem": keys.signing_pem, "public.pem": keys.public_pem, "kid": keys.kid.encode()}
    )


def main(kubeconfig: Path, interval: float, stop: threading.Event) -> None:
    """Play until `stop` is set."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s pki-player %(levelname)s %(message)s")
    PkiPlayer(KubeApi.from_kubeconfig(kubeconfig)).run(stop, interval)
