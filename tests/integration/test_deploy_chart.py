"""The control plane's own chart (deploy/chart): strict lint, its schema, and a real helm install and upgrade
into devcluster, checking every object it creates."""

from __future__ import annotations

import base64
import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.fixtures.devcluster import DevCluster, start_devcluster
from tests.paths import HELM, PROJECT_ROOT

pytestmark = pytest.mark.integration

CHART = PROJECT_ROOT / "deploy" / "chart"
FERNET_KEY = "YnVpbGQtb25seS1rZXktbmV2ZXItdXNlZC1hdC1ydW4="
VALUES = {
    "image": {"repository": "registry.example.com/controlplane", "tag": "1.0.0"},
    "secrets": {"secretKey": "test-only-secret-key", "fieldEncryptionKey": FERNET_KEY},
    "database": {"url": "postgres://cp:pw@db.example.com:5432/cp"},
    "redis": {"brokerUrl": "redis://redis.example.com:6379/0", "cacheUrl": "redis://redis.example.com:6379/1"},
    "gatewayChart": {"ref": "oci://ghcr.io/nvidia/openshell/helm-chart", "version": "1.2.3"},
    "api": {"replicas": 3, "allowedHosts": ["cp.example.com"], "publicUrl": "https://cp.example.com"},
    "worker": {"replicas": 2, "concurrency": 4, "autoscaling": {"enabled": True, "minReplicas": 2, "maxReplicas": 6}},
    "watcher": {"replicas": 2},
    "content": {"enabled": True, "replicas": 2, "gunicornThreads": 4, "publicUrl": "https://content.example.com"},
    "metrics": {"serviceMonitor": {"enabled": True, "labels": {"release": "prometheus"}}},
    "env": {"RESYNC_INTERVAL_SECONDS": "30"},
    "catalogStore": {"claim": {"create": True, "storageClassName": "nfs-rwx"}},
}
ROLES = ("api", "content", "worker", "beat", "watcher")


def run_helm(env: dict[str, str], *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(HELM), *args], env=env, capture_output=True, text=True, timeout=120)
    if check:
        assert done.returncode == 0, f"helm {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevCluster]:
    workdir = tmp_path_factory.mktemp("deploy-chart")
    with start_devcluster(workdir, ready_delay=0.3, extra_presets=("prometheus-operator",)) as running:
        yield running


@pytest.fixture
def helm(cluster: DevCluster, tmp_path: Path) -> Callable[..., subprocess.CompletedProcess[str]]:
    env = {
        **os.environ,
        "KUBECONFIG": str(cluster.kubeconfig),
        "HELM_DRIVER": "secret",
        "HELM_CACHE_HOME": str(tmp_path / "cache"),
        "HELM_CONFIG_HOME": str(tmp_path / "config"),
        "HELM_DATA_HOME": str(tmp_path / "data"),
    }
    return lambda *args, check=True: run_helm(env, *args, check=check)


@pytest.fixture
def values_file(tmp_path: Path) -> Callable[[dict[str, Any]], str]:
    def write(values: dict[str, Any], name: str = "values.yaml") -> str:
        path = tmp_path / name
        path.write_text(yaml.safe_dump(values))
        return str(path)

    return write


def get(cluster: DevCluster, namespace: str, kind_path: str, name: str) -> dict[str, Any]:
    return cluster.call("GET", f"/{kind_path.format(ns=namespace)}/{name}")


DEPLOYMENTS = "apis/apps/v1/namespaces/{ns}/deployments"


def test_lint_is_clean_and_strict(helm: Callable[..., Any], values_file: Callable[..., str]) -> None:
    for args in ((), ("-f", values_file(VALUES))):
        done = helm("lint", "--strict", str(CHART), *args)
        assert "0 chart(s) failed" in done.stdout
        assert "[WARNING]" not in done.stdout and "[ERROR]" not in done.stdout, done.stdout


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"api": {"replicas": "three"}}, "replicas"),
        ({"api": {"surprise": True}}, "surprise"),
        ({"database": {"url": "mysql://db/cp"}}, "url"),
        ({"image": {"digest": "latest"}}, "digest"),
        ({"metrics": {"serviceMonitor": {"interval": 30}}}, "interval"),
    ],
)
def test_schema_types_every_value(
    helm: Callable[..., Any], values_file: Callable[..., str], override: dict[str, Any], message: str
) -> None:
    done = helm(
        "lint", "--strict", str(CHART), "-f", values_file(VALUES), "-f", values_file(override, "bad.yaml"), check=False
    )
    assert done.returncode != 0 and message in done.stdout + done.stderr


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"secrets": {"secretKey": ""}}, "secrets.existingSecret"),
        ({"database": {"url": ""}}, "database.url"),
        ({"gatewayChart": {"version": ""}}, "gatewayChart.version"),
    ],
)
def test_missing_settings_fail_with_a_message(
    helm: Callable[..., Any], values_file: Callable[..., str], override: dict[str, Any], message: str
) -> None:
    done = helm(
        "template", "cp", str(CHART), "-f", values_file(VALUES), "-f", values_file(override, "bad.yaml"), check=False
    )
    assert done.returncode != 0 and message in done.stderr


def container(deployment: dict[str, Any]) -> dict[str, Any]:
    (only,) = deployment["spec"]["template"]["spec"]["containers"]
    return only


def env_of(spec: dict[str, Any]) -> dict[str, Any]:
    return {item["name"]: item.get("value", item.get("valueFrom")) for item in spec["env"]}


def assert_restricted(pod: dict[str, Any]) -> None:
    security = pod["securityContext"]
    assert security["runAsNonRoot"] is True and security["runAsUser"] == 10001
    assert security["seccompProfile"] == {"type": "RuntimeDefault"}
    assert pod["automountServiceAccountToken"] is False
    (only,) = pod["containers"]
    assert only["securityContext"] == {
        "allowPrivilegeEscalation": False,
        "readOnlyRootFilesystem": True,
        "capabilities": {"drop": ["ALL"]},
    }
    mounts = {m["mountPath"]: m["name"] for m in only["volumeMounts"]}
    volumes = {v["name"]: v for v in pod["volumes"]}
    for path in ("/tmp", "/var/lib/controlplane"):
        assert "emptyDir" in volumes[mounts[path]], f"{path} must be a writable emptyDir"


def assert_env_from_secrets(spec: dict[str, Any], secret: str) -> None:
    env = env_of(spec)
    for name in ("SECRET_KEY", "FIELD_ENCRYPTION_KEY", "DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL"):
        assert env[name] == {"secretKeyRef": {"name": secret, "key": name}}, name
    assert env["GATEWAY_CHART"] == "oci://ghcr.io/nvidia/openshell/helm-chart"
    assert env["GATEWAY_CHART_VERSION"] == "1.2.3"
    assert env["ALLOWED_HOSTS"] == "$(POD_IP),localhost,127.0.0.1,cp.example.com"
    assert env["CATALOG_BASE_URL"] == "https://content.example.com" and env["RESYNC_INTERVAL_SECONDS"] == "30"


def test_install_creates_every_object_and_upgrade_reruns_migrations(
    helm: Callable[..., Any], cluster: DevCluster, values_file: Callable[..., str]
) -> None:
    namespace = cluster.create_namespace("cp")
    release, prefix = "cp", "cp-controlplane"
    helm("install", release, str(CHART), "-n", namespace, "-f", values_file(VALUES), "--wait", "--timeout", "60s")

    secret = get(cluster, namespace, "api/v1/namespaces/{ns}/secrets", f"{prefix}-env")
    decoded = {key: base64.b64decode(value).decode() for key, value in secret["data"].items()}
    assert decoded == {
        "SECRET_KEY": "test-only-secret-key",
        "FIELD_ENCRYPTION_KEY": FERNET_KEY,
        "DATABASE_URL": "postgres://cp:pw@db.example.com:5432/cp",
        "CELERY_BROKER_URL": "redis://redis.example.com:6379/0",
        "CACHE_URL": "redis://redis.example.com:6379/1",
    }
    assert secret["metadata"]["annotations"]["helm.sh/hook"] == "pre-install,pre-upgrade"

    deployments = {role: get(cluster, namespace, DEPLOYMENTS, f"{prefix}-{role}") for role in ROLES}
    for role, deployment in deployments.items():
        spec = container(deployment)
        assert spec["image"] == "registry.example.com/controlplane:1.0.0", role
        assert spec["args"][0] == role
        assert_env_from_secrets(spec, f"{prefix}-env")
        assert_restricted(deployment["spec"]["template"]["spec"])
        assert deployment["spec"]["template"]["spec"]["serviceAccountName"] == prefix
    assert deployments["api"]["spec"]["replicas"] == 3
    manifest = {
        (d["kind"], d["metadata"]["name"]): d
        for d in yaml.safe_load_all(helm("get", "manifest", release, "-n", namespace).stdout)
        if d
    }
    assert "replicas" not in manifest[("Deployment", f"{prefix}-worker")]["spec"], "the HPA owns the worker count"
    assert deployments["watcher"]["spec"]["replicas"] == 2
    assert container(deployments["worker"])["args"] == ["worker", "--concurrency", "4"]
    assert deployments["worker"]["spec"]["template"]["spec"]["terminationGracePeriodSeconds"] == 360
    beat = deployments["beat"]["spec"]
    assert beat["replicas"] == 1 and beat["strategy"] == {"type": "Recreate"}

    api = container(deployments["api"])
    assert api["ports"] == [{"name": "http", "containerPort": 8000, "protocol": "TCP"}]
    assert api["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}
    assert api["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "http"}
    assert api["startupProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}
    assert env_of(api)["PROMETHEUS_MULTIPROC_DIR"] == "/run/metrics"
    api_volumes = {v["name"]: v for v in deployments["api"]["spec"]["template"]["spec"]["volumes"]}
    assert api_volumes["metrics"]["emptyDir"] == {"medium": "Memory"}
    assert {"name": "metrics", "mountPath": "/run/metrics"} in api["volumeMounts"]

    content = container(deployments["content"])
    assert deployments["content"]["spec"]["replicas"] == 2
    assert (env_of(content)["GUNICORN_WORKERS"], env_of(content)["GUNICORN_THREADS"]) == ("1", "4")
    assert content["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "http"}
    assert {"name": "catalogs", "mountPath": "/var/lib/controlplane/catalogs"} in content["volumeMounts"]
    assert "PROMETHEUS_MULTIPROC_DIR" not in env_of(content)

    for role in ("api", "content"):
        service = get(cluster, namespace, "api/v1/namespaces/{ns}/services", f"{prefix}-{role}")
        assert service["spec"]["ports"][0]["targetPort"] == "http"
        assert service["spec"]["selector"]["app.kubernetes.io/component"] == role

    hpa = get(cluster, namespace, "apis/autoscaling/v2/namespaces/{ns}/horizontalpodautoscalers", f"{prefix}-worker")
    assert hpa["spec"]["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment", "name": f"{prefix}-worker"}
    assert (hpa["spec"]["minReplicas"], hpa["spec"]["maxReplicas"]) == (2, 6)
    with pytest.raises(Exception, match="404"):
        get(cluster, namespace, "apis/autoscaling/v2/namespaces/{ns}/horizontalpodautoscalers", f"{prefix}-api")

    pdbs = cluster.call("GET", f"/apis/policy/v1/namespaces/{namespace}/poddisruptionbudgets")["items"]
    assert {p["metadata"]["name"]: p["spec"]["maxUnavailable"] for p in pdbs} == {
        f"{prefix}-{role}": 1 for role in ("api", "content", "worker", "watcher")
    }
    policies = {
        p["metadata"]["name"]: p["spec"]
        for p in cluster.call("GET", f"/apis/networking.k8s.io/v1/namespaces/{namespace}/networkpolicies")["items"]
    }
    assert policies[f"{prefix}-api"]["ingress"] == [{"ports": [{"port": "http", "protocol": "TCP"}]}]
    assert policies[f"{prefix}-content"]["ingress"] == policies[f"{prefix}-api"]["ingress"]
    assert "ingress" not in policies[f"{prefix}-no-ingress"]
    monitor = get(cluster, namespace, "apis/monitoring.coreos.com/v1/namespaces/{ns}/servicemonitors", prefix)
    assert monitor["spec"]["endpoints"][0]["path"] == "/metrics"
    assert monitor["metadata"]["labels"]["release"] == "prometheus"

    job = get(cluster, namespace, "apis/batch/v1/namespaces/{ns}/jobs", f"{prefix}-migrate")
    assert job["metadata"]["annotations"] == {
        "helm.sh/hook": "pre-install,pre-upgrade",
        "helm.sh/hook-weight": "0",
        "helm.sh/hook-delete-policy": "before-hook-creation",
    }
    pod = job["spec"]["template"]["spec"]
    assert container(job)["args"] == ["migrate"] and pod["restartPolicy"] == "Never"
    assert_env_from_secrets(container(job), f"{prefix}-env")
    assert_restricted(pod)
    assert job["status"].get("succeeded") == 1

    upgraded = {**VALUES, "image": {"repository": "registry.example.com/controlplane", "tag": "1.1.0"}}
    helm("upgrade", release, str(CHART), "-n", namespace, "-f", values_file(upgraded), "--wait", "--timeout", "60s")
    rerun = get(cluster, namespace, "apis/batch/v1/namespaces/{ns}/jobs", f"{prefix}-migrate")
    assert rerun["metadata"]["uid"] != job["metadata"]["uid"], "the upgrade must run a new migration Job"
    assert container(rerun)["image"] == "registry.example.com/controlplane:1.1.0"
    assert rerun["status"].get("succeeded") == 1
    for role in ROLES:
        deployment = get(cluster, namespace, DEPLOYMENTS, f"{prefix}-{role}")
        assert container(deployment)["image"] == "registry.example.com/controlplane:1.1.0", role
    status = yaml.safe_load(helm("status", release, "-n", namespace, "-o", "yaml").stdout)
    assert status["version"] == 2 and status["info"]["status"] == "deployed"
    helm("uninstall", release, "-n", namespace, "--wait")
    cluster.delete_namespace(namespace)


def test_existing_secrets_and_a_digest_are_referenced_as_given(
    helm: Callable[..., Any], values_file: Callable[..., str]
) -> None:
    existing = {
        **VALUES,
        "image": {"repository": "registry.example.com/controlplane", "tag": "ignored", "digest": "sha256:" + "b" * 64},
        "secrets": {"existingSecret": "cp-keys"},
        "database": {"existingSecret": "cp-db", "existingSecretKey": "uri"},
        "redis": {"existingSecret": "cp-redis", "brokerUrlKey": "broker", "cacheUrlKey": "cache"},
    }
    rendered = [
        d for d in yaml.safe_load_all(helm("template", "cp", str(CHART), "-f", values_file(existing)).stdout) if d
    ]
    assert not [d for d in rendered if d["kind"] == "Secret"], "no chart Secret when every value comes from one"
    workloads = [d for d in rendered if d["kind"] in ("Deployment", "Job")]
    assert len(workloads) == 6
    for workload in workloads:
        spec = container(workload)
        assert spec["image"] == "registry.example.com/controlplane@sha256:" + "b" * 64
        env = env_of(spec)
        assert env["SECRET_KEY"] == {"secretKeyRef": {"name": "cp-keys", "key": "SECRET_KEY"}}
        assert env["FIELD_ENCRYPTION_KEY"] == {"secretKeyRef": {"name": "cp-keys", "key": "FIELD_ENCRYPTION_KEY"}}
        assert env["DATABASE_URL"] == {"secretKeyRef": {"name": "cp-db", "key": "uri"}}
        assert env["CELERY_BROKER_URL"] == {"secretKeyRef": {"name": "cp-redis", "key": "broker"}}
        assert env["CACHE_URL"] == {"secretKeyRef": {"name": "cp-redis", "key": "cache"}}


def test_the_content_server_is_off_by_default(helm: Callable[..., Any], values_file: Callable[..., str]) -> None:
    values = {key: value for key, value in VALUES.items() if key != "content"}
    rendered = [
        d for d in yaml.safe_load_all(helm("template", "cp", str(CHART), "-f", values_file(values)).stdout) if d
    ]
    assert not [d for d in rendered if "content" in d["metadata"]["name"]]
    api = next(d for d in rendered if d["kind"] == "Deployment" and d["metadata"]["name"] == "cp-controlplane-api")
    assert env_of(container(api))["CATALOG_BASE_URL"] == "https://cp.example.com"


def render(helm: Callable[..., Any], values_file: Callable[..., str], values: dict[str, Any]) -> list[dict[str, Any]]:
    return [d for d in yaml.safe_load_all(helm("template", "cp", str(CHART), "-f", values_file(values)).stdout) if d]


def content_pods(rendered: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The pod specs of the roles that read or write catalog content, by role."""
    pods = {
        d["metadata"]["name"].removeprefix("cp-controlplane-"): d["spec"]["template"]["spec"]
        for d in rendered
        if d["kind"] == "Deployment"
    }
    return {role: pod for role, pod in pods.items() if role in ("api", "worker", "content")}


def catalog_volume(pod: dict[str, Any]) -> dict[str, Any] | None:
    """The volume mounted at the catalog store directory, or None."""
    (only,) = pod["containers"]
    names = [m["name"] for m in only["volumeMounts"] if m["mountPath"] == "/var/lib/controlplane/catalogs"]
    return next((v for v in pod["volumes"] if v["name"] in names), None)


def without_store(values: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in values.items() if key != "catalogStore"}


REQUIRED_ONLY = {key: VALUES[key] for key in ("secrets", "database", "redis", "gatewayChart")}
SMALLEST = {**REQUIRED_ONLY, "api": {"replicas": 1}, "worker": {"replicas": 1}}


@pytest.mark.parametrize(("values", "pods"), [(REQUIRED_ONLY, 4), (SMALLEST, 2), (without_store(VALUES), 7)])
def test_no_shared_catalog_store_is_refused_naming_the_values(
    helm: Callable[..., Any], values_file: Callable[..., str], values: dict[str, Any], pods: int
) -> None:
    """The API and the workers are separate pods, so even the default and the smallest topology need a shared
    store: a directory per pod would leave the API's empty for ever."""
    done = helm("template", "cp", str(CHART), "-f", values_file(values), check=False)
    assert done.returncode != 0, "a store per pod must not render"
    assert f"shared by {pods} pods" in done.stderr, done.stderr
    for name in ("catalogStore.claim.existing", "catalogStore.claim.create", "catalogStore.s3.bucket"):
        assert name in done.stderr, done.stderr


def test_an_existing_claim_is_mounted_by_every_content_pod(
    helm: Callable[..., Any], values_file: Callable[..., str]
) -> None:
    rendered = render(helm, values_file, {**VALUES, "catalogStore": {"claim": {"existing": "shared-catalogs"}}})
    pods = content_pods(rendered)
    assert set(pods) == {"api", "worker", "content"}
    for role, pod in pods.items():
        claim = {"name": "catalogs", "persistentVolumeClaim": {"claimName": "shared-catalogs"}}
        assert catalog_volume(pod) == claim, role
        assert "CATALOG_STORE" not in env_of(pod["containers"][0]), "the directory store is the default"
    assert not [d for d in rendered if d["kind"] == "PersistentVolumeClaim"], "an existing claim is not created"


def test_a_created_claim_is_read_write_many_from_the_storage_class(
    helm: Callable[..., Any], values_file: Callable[..., str]
) -> None:
    store = {"claim": {"create": True, "storageClassName": "nfs-rwx", "size": "20Gi"}}
    rendered = render(helm, values_file, {**VALUES, "catalogStore": store})
    (claim,) = [d for d in rendered if d["kind"] == "PersistentVolumeClaim"]
    assert claim["metadata"]["name"] == "cp-controlplane-catalogs"
    assert claim["spec"] == {
        "accessModes": ["ReadWriteMany"],
        "storageClassName": "nfs-rwx",
        "resources": {"requests": {"storage": "20Gi"}},
    }
    for role, pod in content_pods(rendered).items():
        assert catalog_volume(pod) == {
            "name": "catalogs",
            "persistentVolumeClaim": {"claimName": "cp-controlplane-catalogs"},
        }, role
    others = [
        d
        for d in rendered
        if d["kind"] in ("Deployment", "Job")
        and d["metadata"]["name"].rsplit("-", 1)[1] in ("beat", "watcher", "migrate")
    ]
    assert len(others) == 3 and all(catalog_volume(d["spec"]["template"]["spec"]) is None for d in others)


S3_STORE = {
    "bucket": "catalog-content",
    "prefix": "cp/prod",
    "endpointUrl": "https://minio.example.com:9000",
    "region": "eu-west-1",
    "addressingStyle": "path",
    "verifyTls": True,
    "caBundle": {"configMap": "minio-ca", "key": "ca.pem"},
    "credentials": {"existingSecret": "catalog-s3", "accessKeyIdKey": "id", "secretAccessKeyKey": "secret"},
}


def test_s3_is_wired_to_every_content_pod_with_credentials_from_a_secret(
    helm: Callable[..., Any], values_file: Callable[..., str]
) -> None:
    rendered = render(helm, values_file, {**VALUES, "catalogStore": {"s3": S3_STORE}})
    assert not [d for d in rendered if d["kind"] == "PersistentVolumeClaim"]
    pods = content_pods(rendered)
    assert set(pods) == {"api", "worker", "content"}
    for role, pod in pods.items():
        env = env_of(pod["containers"][0])
        assert {name: env.get(name) for name in env if name.startswith("CATALOG_S")} == {
            "CATALOG_STORE": "s3",
            "CATALOG_S3_BUCKET": "catalog-content",
            "CATALOG_S3_PREFIX": "cp/prod",
            "CATALOG_S3_ENDPOINT_URL": "https://minio.example.com:9000",
            "CATALOG_S3_REGION": "eu-west-1",
            "CATALOG_S3_ADDRESSING_STYLE": "path",
            "CATALOG_S3_CA_BUNDLE": "/etc/controlplane/catalog-s3-ca/ca-bundle.pem",
            "CATALOG_S3_ACCESS_KEY_ID": {"secretKeyRef": {"name": "catalog-s3", "key": "id"}},
            "CATALOG_S3_SECRET_ACCESS_KEY": {"secretKeyRef": {"name": "catalog-s3", "key": "secret"}},
        }, role
        assert catalog_volume(pod) is None, f"{role}: no volume for content with S3"
        ca = next(v for v in pod["volumes"] if v["name"] == "catalog-s3-ca")
        assert ca["configMap"] == {"name": "minio-ca", "items": [{"key": "ca.pem", "path": "ca-bundle.pem"}]}
        assert {"name": "catalog-s3-ca", "mountPath": "/etc/controlplane/catalog-s3-ca", "readOnly": True} in (
            pod["containers"][0]["volumeMounts"]
        )
    for workload in (d for d in rendered if d["kind"] in ("Deployment", "Job")):
        if workload["metadata"]["name"].rsplit("-", 1)[1] in ("beat", "watcher", "migrate"):
            assert not [n for n in env_of(container(workload)) if n.startswith("CATALOG_S")], "fs settings elsewhere"
    assert "catalog-s3" not in [d["metadata"]["name"] for d in rendered if d["kind"] == "Secret"]


def test_s3_on_aws_needs_only_a_bucket(helm: Callable[..., Any], values_file: Callable[..., str]) -> None:
    """Without credentials boto3's own chain applies (web identity, instance profile)."""
    rendered = render(helm, values_file, {**VALUES, "catalogStore": {"s3": {"bucket": "catalog-content"}}})
    for pod in content_pods(rendered).values():
        env = env_of(pod["containers"][0])
        assert {name: env[name] for name in env if name.startswith("CATALOG_S")} == {
            "CATALOG_STORE": "s3",
            "CATALOG_S3_BUCKET": "catalog-content",
            "CATALOG_S3_ADDRESSING_STYLE": "auto",
        }
        assert [v["name"] for v in pod["volumes"] if v["name"].startswith("catalog")] == []


@pytest.mark.parametrize(
    ("store", "message"),
    [
        ({"claim": {"existing": "shared"}, "s3": {"bucket": "catalog-content"}}, "not both"),
        ({"claim": {"existing": "shared", "create": True, "storageClassName": "nfs"}}, "not both"),
        ({"claim": {"create": True}}, "catalogStore.claim.storageClassName"),
        (
            {"s3": {"endpointUrl": "https://minio:9000", "credentials": {"existingSecret": "keys"}}},
            "catalogStore.s3.bucket",
        ),
        ({"s3": {"verifyTls": False}}, "catalogStore.s3.bucket"),
        (
            {"s3": {"bucket": "catalog-content", "verifyTls": False, "caBundle": {"configMap": "ca"}}},
            "catalogStore.s3.verifyTls",
        ),
        (
            {"s3": {"bucket": "catalog-content", "endpointUrl": "http://minio:9000", "verifyTls": False}},
            "catalogStore.s3.endpointUrl is plain http",
        ),
    ],
)
def test_a_half_configured_store_is_refused(
    helm: Callable[..., Any], values_file: Callable[..., str], store: dict[str, Any], message: str
) -> None:
    done = helm(
        "template",
        "cp",
        str(CHART),
        "-f",
        values_file(without_store(VALUES)),
        "-f",
        values_file({"catalogStore": store}, "store.yaml"),
        check=False,
    )
    assert done.returncode != 0 and message in done.stderr, done.stderr


@pytest.mark.parametrize(
    ("store", "message"),
    [
        ({"s3": {"bucket": "Not_A_Bucket"}}, "bucket"),
        ({"s3": {"addressingStyle": "dns"}}, "addressingStyle"),
        ({"claim": {"size": "lots"}}, "size"),
        ({"existingClaim": "legacy"}, "existingClaim"),
        ({"s3": {"credentials": {"secretAccessKey": "inline"}}}, "secretAccessKey"),
    ],
)
def test_the_schema_types_the_catalog_store(
    helm: Callable[..., Any], values_file: Callable[..., str], store: dict[str, Any], message: str
) -> None:
    done = helm(
        "lint",
        "--strict",
        str(CHART),
        "-f",
        values_file(VALUES),
        "-f",
        values_file({"catalogStore": store}, "store.yaml"),
        check=False,
    )
    assert done.returncode != 0 and message in done.stdout + done.stderr


def test_a_read_write_once_claim_is_refused_at_install(
    helm: Callable[..., Any], cluster: DevCluster, values_file: Callable[..., str]
) -> None:
    """The chart reads an existing claim's access modes from the cluster: one node's volume cannot be shared."""
    namespace = cluster.create_namespace("cp-rwo")
    claims = f"/api/v1/namespaces/{namespace}/persistentvolumeclaims"
    for name, mode in (("node-local", "ReadWriteOnce"), ("shared", "ReadWriteMany")):
        cluster.call(
            "POST",
            claims,
            {
                "apiVersion": "v1",
                "kind": "PersistentVolumeClaim",
                "metadata": {"name": name},
                "spec": {"accessModes": [mode], "resources": {"requests": {"storage": "1Gi"}}},
            },
        )
    values = {**VALUES, "catalogStore": {"claim": {"existing": "node-local"}}}
    done = helm(
        "install", "cp", str(CHART), "-n", namespace, "-f", values_file(values), "--dry-run=server", check=False
    )
    assert done.returncode != 0
    assert 'claim "node-local" is ReadWriteOnce' in done.stderr and "ReadWriteMany" in done.stderr, done.stderr
    values = {**VALUES, "catalogStore": {"claim": {"existing": "shared"}}}
    helm("install", "cp", str(CHART), "-n", namespace, "-f", values_file(values), "--dry-run=server")
    cluster.delete_namespace(namespace)
