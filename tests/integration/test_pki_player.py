"""The PKI player against the unmodified upstream OpenShell chart, installed by the real helm binary on a
devcluster: its certgen hook's Secrets and its cert-manager chain, checked cryptographically.

The hook Job is deleted once it succeeds, so its arguments are read back from the release (`helm get hooks`).
"""

from __future__ import annotations

import base64
import os
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import yaml
from cryptography.hazmat.primitives import serialization

from devcluster import pki
from devcluster.pki_player import certgen_args
from tests.fixtures.charts import require_upstream_chart
from tests.fixtures.devcluster import DevCluster, DevClusterError, start_devcluster
from tests.fixtures.tls import cert, public_key_pem, sans, verify_client, verify_server
from tests.paths import HELM
from tests.waiting import wait_until

pytestmark = pytest.mark.integration

# Releases of one name share the chart's ClusterRole across namespaces, so each test has its own.
DEADLINE_SECONDS = 20.0
SPKI_PEM = (serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevCluster]:
    require_upstream_chart()
    with start_devcluster(tmp_path_factory.mktemp("pki"), extra_presets=("agent-sandbox",)) as started:
        yield started


@pytest.fixture
def helm(cluster: DevCluster, tmp_path: Path) -> Any:
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "HELM_DRIVER": "secret",
        "KUBECONFIG": str(cluster.kubeconfig),
        **{f"HELM_{kind}_HOME": str(tmp_path / kind.lower()) for kind in ("CACHE", "CONFIG", "DATA")},
    }

    def run(*args: str) -> str:
        result = subprocess.run([str(HELM), *args], env=env, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, f"helm {' '.join(args)}:\n{result.stdout}\n{result.stderr}"
        return result.stdout

    return run


def install(helm: Any, command: str, release: str, namespace: str, *sets: str) -> None:
    chart = str(require_upstream_chart())
    args = [command, release, chart, "-n", namespace, "--wait", "--timeout", "60s"]
    for value in sets:
        args += ["--set", value]
    helm(*args)


def secret(cluster: DevCluster, namespace: str, name: str) -> dict[str, Any] | None:
    try:
        return cluster.call("GET", f"/api/v1/namespaces/{namespace}/secrets/{name}")
    except DevClusterError as exc:
        if "404" in str(exc):
            return None
        raise


def wait_for_secret(cluster: DevCluster, namespace: str, name: str) -> dict[str, Any]:
    return wait_until(
        lambda: secret(cluster, namespace, name),
        lambda: f"secret {namespace}/{name}; player stderr:\n{cluster.player_stderr_path.read_text()}",
        DEADLINE_SECONDS,
        0.05,
    )


def data(obj: dict[str, Any]) -> dict[str, bytes]:
    return {key: base64.b64decode(value) for key, value in obj["data"].items()}


def check_jwt(obj: dict[str, Any]) -> None:
    assert obj["type"] == "Opaque"
    keys = data(obj)
    assert public_key_pem(keys["signing.pem"]) == keys["public.pem"]
    assert len(keys["kid"]) == 32


def test_certgen_hook_secrets_verify_and_survive_an_upgrade(cluster: DevCluster, helm: Any) -> None:
    namespace, fullname = cluster.create_namespace("pki"), "gw-openshell"
    extra = ("pkiInitJob.serverDnsNames={gw.example.test}", "pkiInitJob.serverIpAddresses={192.0.2.10}")
    install(helm, "install", "gw", namespace, "server.sandboxImage=sandbox:1", *extra)

    (job,) = [d for d in yaml.safe_load_all(helm("get", "hooks", "gw", "-n", namespace)) if d and d["kind"] == "Job"]
    args = certgen_args(job)
    assert args is not None and not args.jwt_only
    assert {"gw.example.test", "192.0.2.10", f"{fullname}.{namespace}.svc", "127.0.0.1"} <= set(args.server_sans)

    server = data(wait_for_secret(cluster, namespace, args.server_secret))
    client = data(wait_for_secret(cluster, namespace, args.client_secret))
    assert sans(server["tls.crt"]) == set(pki.CERTGEN_DEFAULT_SANS) | set(args.server_sans)
    for name in args.server_sans:
        verify_server(server["tls.crt"], server["ca.crt"], name.replace("*", "x"))
    verify_client(client["tls.crt"], client["ca.crt"])
    assert server["ca.crt"] == client["ca.crt"]
    assert cert(server["tls.crt"]).public_key().public_bytes(*SPKI_PEM) == public_key_pem(server["tls.key"])
    check_jwt(wait_for_secret(cluster, namespace, args.jwt_secret))

    # The hook runs again on upgrade; as upstream's, it leaves existing secrets alone.
    install(helm, "upgrade", "gw", namespace, "server.sandboxImage=sandbox:2", *extra)
    assert data(wait_for_secret(cluster, namespace, args.server_secret)) == server
    statefulset = cluster.call("GET", f"/apis/apps/v1/namespaces/{namespace}/statefulsets/{fullname}")
    volumes = {v["name"]: v for v in statefulset["spec"]["template"]["spec"]["volumes"]}
    assert volumes["tls-cert"]["secret"]["secretName"] == args.server_secret
    assert volumes["sandbox-jwt"]["secret"]["secretName"] == args.jwt_secret


def test_cert_manager_chain_converges_and_verifies(cluster: DevCluster, helm: Any) -> None:
    namespace, fullname = cluster.create_namespace("pki-cm"), "cm-openshell"
    corp = create_corp_ca(cluster)
    external = "gw.apps.example.test"
    install(
        helm,
        "install",
        "cm",
        namespace,
        "certManager.enabled=true",
        "certManager.serverIssuerRef.name=corp-ca",
        "certManager.serverIssuerRef.kind=ClusterIssuer",
        f"certManager.serverDnsNames={{{external}}}",
    )
    ca = data(wait_for_secret(cluster, namespace, "openshell-ca-tls"))
    assert ca["ca.crt"] == ca["tls.crt"], "a selfSigned issuer's ca.crt is the certificate itself"
    assert cert(ca["tls.crt"]).subject.rfc4514_string() == "CN=openshell-ca"

    server_obj = wait_for_secret(cluster, namespace, "openshell-server-tls")
    server = data(server_obj)
    assert server_obj["type"] == "kubernetes.io/tls" and server["ca.crt"] == ca["tls.crt"]
    annotations = server_obj["metadata"]["annotations"]
    assert (
        annotations["cert-manager.io/certificate-name"],
        annotations["cert-manager.io/issuer-name"],
        annotations["cert-manager.io/issuer-kind"],
    ) == (f"{fullname}-server", f"{fullname}-ca-issuer", "Issuer")
    for name in (fullname, f"{fullname}.{namespace}.svc", "localhost", "127.0.0.1"):
        verify_server(server["tls.crt"], ca["tls.crt"], name)
    assert external not in sans(server["tls.crt"]), "the internal certificate leaves external names out"

    client = data(wait_for_secret(cluster, namespace, "openshell-client-tls"))
    verify_client(client["tls.crt"], ca["tls.crt"])
    outside = data(wait_for_secret(cluster, namespace, f"{fullname}-server-external-tls"))
    verify_server(outside["tls.crt"], corp.cert_pem, external)
    assert sans(outside["tls.crt"]) == {external} and outside["ca.crt"] == corp.cert_pem
    check_jwt(wait_for_secret(cluster, namespace, f"{fullname}-jwt-keys"))
    assert secret(cluster, namespace, "openshell-server-client-ca") is None, "jwt-only: certgen made no TLS"
    certificate = cluster.call("GET", f"/apis/cert-manager.io/v1/namespaces/{namespace}/certificates/{fullname}-server")
    assert certificate["spec"]["duration"] == "8760h"
    lifetime = cert(server["tls.crt"]).not_valid_after_utc - cert(server["tls.crt"]).not_valid_before_utc
    assert lifetime.days == 365
    assert cert(server["tls.crt"]).not_valid_before_utc <= datetime.now(UTC)


def create_corp_ca(cluster: DevCluster) -> pki.Issued:
    """A platform team's CA ClusterIssuer `corp-ca`, its Secret in cert-manager's cluster resource namespace."""
    corp = pki.issue(pki.CertRequest(common_name="corp-ca", is_ca=True, key_algorithm="ECDSA"), datetime.now(UTC))
    cluster.call(
        "POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "cert-manager"}}
    )
    encoded = {
        k: base64.b64encode(v).decode()
        for k, v in {"tls.crt": corp.cert_pem, "tls.key": corp.key_pem, "ca.crt": corp.cert_pem}.items()
    }
    cluster.call(
        "POST",
        "/api/v1/namespaces/cert-manager/secrets",
        {
            "apiVersion": "v1",
            "kind": "Secret",
            "type": "kubernetes.io/tls",
            "metadata": {"name": "corp-ca"},
            "data": encoded,
        },
    )
    cluster.call(
        "POST",
        "/apis/cert-manager.io/v1/clusterissuers",
        {
            "apiVersion": "cert-manager.io/v1",
            "kind": "ClusterIssuer",
            "metadata": {"name": "corp-ca"},
            "spec": {"ca": {"secretName": "corp-ca"}},
        },
    )
    return corp
