"""End to end: `deploy/chart` installed with the real helm on a devcluster whose process runtime runs its pods
(2 API pods, 2 workers, beat, the watcher and the migration hook Job) as processes of this checkout, on the real
PostgreSQL and Redis; a second devcluster is the managed cluster. Everything after the install goes through the
API Service (a NodePort, which devcluster's kube-proxy stand-in serves on loopback) or the API server's pod proxy.

The catalog store is the chart-created ReadWriteMany claim, one directory shared by every pod that mounts it.
The test ends by showing that its content check fails with an emptyDir per pod instead: the worker unpacks into
its own directory and the API pods serve nothing (the chart refuses such values; the Deployment is edited).
"""

from __future__ import annotations

import base64
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis
import requests
import yaml
from django.conf import settings

from tests.fixtures.charts import MIRROR_CHART, push_chart
from tests.fixtures.devcluster import DevCluster, start_devcluster
from tests.fixtures.registry import Registry, expected_lines, fbc_layer
from tests.helpers import release_of
from tests.paths import HELM, PROJECT_ROOT
from tests.waiting import wait_until

pytestmark = pytest.mark.e2e

CHART = PROJECT_ROOT / "deploy" / "chart"
IMAGE = "ghcr.io/example/controlplane"
RELEASE = "cp"
NAMESPACE = "controlplane"
BROKER_URL = os.environ.get("E2E_CHART_BROKER_URL", "redis://127.0.0.1:6379/11")
CACHE_URL = os.environ.get("E2E_CHART_CACHE_URL", "redis://127.0.0.1:6379/12")
FERNET_KEY = base64.urlsafe_b64encode(b"process-runtime-e2e-key-32bytes!").decode()


@dataclass
class Installed:
    """The control plane running on `cluster`, reached through its API Service at `api_url`."""

    cluster: DevCluster
    helm_env: dict[str, str]
    values_path: Path
    api_url: str
    token: str
    session: requests.Session = field(default_factory=requests.Session)

    def helm(self, *args: str) -> str:
        done = subprocess.run([str(HELM), *args], env=self.helm_env, capture_output=True, text=True, timeout=170)
        assert done.returncode == 0, f"helm {' '.join(args)}:\n{done.stdout}\n{done.stderr}\n{self.logs()}"
        return done.stdout

    def api(self, method: str, path: str, **kwargs: Any) -> requests.Response:
        headers = {"Authorization": f"Token {self.token}"}
        return self.session.request(method, self.api_url + path, headers=headers, timeout=30, **kwargs)

    def kube(self, path: str) -> Any:
        return self.cluster.call("GET", path)

    def pods(self, component: str) -> list[dict[str, Any]]:
        selector = f"app.kubernetes.io/component%3D{component}"
        items = self.kube(f"/api/v1/namespaces/{NAMESPACE}/pods?labelSelector={selector}")["items"]
        return [p for p in items if not p["metadata"].get("deletionTimestamp")]

    def logs(self) -> str:
        """The last lines of every container log, for failure messages."""
        out = []
        for log in sorted((self.cluster.workdir / "process-runtime" / "pods").glob("*/logs/*.log")):
            out.append(f"--- {log.parent.parent.name}/{log.name}\n{log.read_text(errors='replace')[-1500:]}")
        return "\n".join(out)


def _ready(pod: dict[str, Any]) -> bool:
    conditions = (pod.get("status") or {}).get("conditions") or []
    return any(c["type"] == "Ready" and c["status"] == "True" for c in conditions)


def _condition(status: dict[str, Any], type_: str) -> tuple[str, str]:
    found = next((c for c in status["conditions"] if c["type"] == type_), None)
    return (found["status"], found["reason"]) if found else ("", "")


@pytest.fixture(scope="module")
def chart_database() -> Iterator[str]:
    """A database of the chart's own on the local PostgreSQL (the migration hook creates its tables)."""
    db = settings.DATABASES["default"]
    name = f"{db['NAME']}_chart_processes"
    admin = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    yield f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{name}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def installed(
    tmp_path_factory: pytest.TempPathFactory, chart_database: str, registry: Registry, gateway_cluster: DevCluster
) -> Iterator[Installed]:
    workdir = tmp_path_factory.mktemp("chart-processes")
    push_chart(MIRROR_CHART, registry.host, "charts", workdir)
    chart_meta = yaml.safe_load((MIRROR_CHART / "Chart.yaml").read_text())
    # The image's build step: the console's static files (the API pods read them from the image).
    static_env = {**os.environ, "STATIC_ROOT": str(PROJECT_ROOT / "build" / "static")}
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput"],
        cwd=PROJECT_ROOT,
        env=static_env,
        check=True,
        capture_output=True,
    )
    for url in (BROKER_URL, CACHE_URL):
        redis.Redis.from_url(url).flushdb()
    values = {
        "image": {"repository": IMAGE, "tag": "1.0.0"},
        "secrets": {"secretKey": "process-runtime-e2e-secret-key", "fieldEncryptionKey": FERNET_KEY},
        "database": {"url": chart_database},
        "redis": {"brokerUrl": BROKER_URL, "cacheUrl": CACHE_URL},
        "gatewayChart": {"ref": f"oci://{registry.host}/charts/{chart_meta['name']}", "version": chart_meta["version"]},
        "api": {"replicas": 2, "gunicornWorkers": 2, "service": {"type": "NodePort"}},
        "worker": {"replicas": 2, "concurrency": 1, "terminationGracePeriodSeconds": 60},
        "catalogStore": {"claim": {"create": True, "storageClassName": "rwx"}},
        "env": {
            "RESYNC_INTERVAL_SECONDS": "2",
            "HELM_TIMEOUT_SECONDS": "20",
            "GATEWAY_POLL_SECONDS": "1",
            "GATEWAY_RETRY_BASE_SECONDS": "1",
            "GATEWAY_RETRY_CAP_SECONDS": "4",
            "GATEWAY_LEASE_SECONDS": "25",
            "GATEWAY_READY_GRACE_SECONDS": "30",
            "API_THROTTLE_USER_RATE": "1000000/min",
            "API_THROTTLE_ANON_RATE": "1000000/min",
        },
    }
    values_path = workdir / "values.yaml"
    values_path.write_text(yaml.safe_dump(values))
    with start_devcluster(workdir / "cluster", ready_delay=0.2, process_image_repository=IMAGE, pki=False) as cluster:
        helm_env = {
            "PATH": os.environ["PATH"],
            "HOME": str(workdir),
            "KUBECONFIG": str(cluster.kubeconfig),
            "HELM_CACHE_HOME": str(workdir / "cache"),
            "HELM_CONFIG_HOME": str(workdir / "config"),
            "HELM_DATA_HOME": str(workdir / "data"),
        }
        running = Installed(cluster, helm_env, values_path, "", "")
        running.helm(
            "install",
            RELEASE,
            str(CHART),
            "-n",
            NAMESPACE,
            "--create-namespace",
            "-f",
            str(values_path),
            "--wait",
            "--timeout",
            "150s",
        )
        service = cluster.call("GET", f"/api/v1/namespaces/{NAMESPACE}/services/{RELEASE}-controlplane-api")
        running.api_url = f"http://127.0.0.1:{service['spec']['ports'][0]['nodePort']}"
        # An operator's first admin and token, made with the image's manage.py against the chart's database.
        admin = subprocess.run(
            [sys.executable, "manage.py", "bootstrap_local", "--username", "platform"],
            cwd=PROJECT_ROOT,
            env={**os.environ, "DATABASE_URL": chart_database, "FIELD_ENCRYPTION_KEY": FERNET_KEY},
            check=True,
            capture_output=True,
            text=True,
        )
        running.token = admin.stdout.rsplit("API token: ", 1)[1].strip()
        try:
            yield running
        finally:
            groups = {
                int(c["containerID"].split("://")[1])
                for p in cluster.call("GET", "/api/v1/pods")["items"]
                for c in (p.get("status") or {}).get("containerStatuses") or []
                if c.get("containerID")
            }
            cluster.stop()
        assert groups and not [g for g in groups if _alive(g)], "pod processes outlived devcluster"


def _alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


def _gateway(installed: Installed, name: str) -> dict[str, Any]:
    created = installed.api(
        "POST",
        "/api/v1/gateways/",
        json={
            "name": name,
            "cluster": "managed",
            "image": "ghcr.io/nvidia/openshell/gateway:1.0.0",
            "supervisor_image": "ghcr.io/nvidia/openshell/supervisor:1.0.0",
        },
    )
    assert created.status_code == 201, created.text
    return created.json()


def _running(installed: Installed, gateway_id: str) -> dict[str, Any]:
    def check() -> dict[str, Any] | None:
        status = installed.api("GET", f"/api/v1/gateways/{gateway_id}/").json()["status"]
        return status if status["phase"] == "Running" else None

    return wait_until(check, f"gateway {gateway_id} Running", timeout=60)


def _served_by_each_api_pod(installed: Installed, catalog: str, version: str) -> bool:
    """Whether every API pod (through the API server's pod proxy) serves the catalog's `/all` and `metas`."""
    etcd = b"".join(expected_lines(version).splitlines(keepends=True)[1:4])
    for pod in installed.pods("api"):
        base = f"{installed.cluster.url}/api/v1/namespaces/{NAMESPACE}/pods/{pod['metadata']['name']}:http/proxy"
        content = f"{base}/catalogs/{catalog}/api/v1"
        if requests.get(f"{content}/all", timeout=10).content != expected_lines(version):
            return False
        if requests.get(f"{content}/metas", params={"package": "etcd"}, timeout=10).content != etcd:
            return False
    return True


def _serving(installed: Installed, catalog_id: str) -> bool:
    status = installed.api("GET", f"/api/v1/catalogs/{catalog_id}/").json()["status"]
    return _condition(status, "Serving") == ("True", "Available")


def _helm_sessions(release: str) -> set[int]:
    """Session ids (a container's main pid) of the running `helm install|upgrade RELEASE` processes."""
    found = set()
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
            if argv[0].endswith(b"helm") and {b"install", b"upgrade"} & set(argv[1:3]) and release.encode() in argv:
                found.add(os.getsid(int(proc.name)))
        except (OSError, IndexError):
            continue
    return found


def test_chart_runs_as_processes(installed: Installed, gateway_cluster: DevCluster, registry: Registry) -> None:
    assert [len(installed.pods(c)) for c in ("api", "worker", "beat", "watcher")] == [2, 2, 1, 1]
    migrate = installed.kube(f"/apis/batch/v1/namespaces/{NAMESPACE}/jobs/{RELEASE}-controlplane-migrate")
    assert migrate["status"]["succeeded"] == 1

    cluster = installed.api(
        "POST",
        "/api/v1/clusters/",
        json={
            "name": "managed",
            "kubeconfig": gateway_cluster.kubeconfig.read_text(),
            "base_domain": "managed.example.test",
            "gateway_api": True,
        },
    )
    assert cluster.status_code == 201, cluster.text

    # A gateway reaches Running with its route address.
    first = _gateway(installed, "edge")
    status = _running(installed, first["id"])
    assert status["route_address"] == f"grpcs://{first['namespace']}.managed.example.test:443"

    # A catalog unpacked by a worker into the shared claim is served by each API pod.
    registry.push_image("tests/chart-processes", "v1", [fbc_layer("v1")])
    catalog = installed.api(
        "POST",
        "/api/v1/catalogs/",
        json={
            "name": "community",
            "source": {"image": {"ref": f"{registry.host}/tests/chart-processes:v1"}},
        },
    )
    assert catalog.status_code == 201, catalog.text
    wait_until(lambda: _serving(installed, catalog.json()["id"]), "the catalog to be served", timeout=60)
    assert _served_by_each_api_pod(installed, "community", "v1")

    # A worker pod deleted while it runs a gateway's helm install: the install still converges to one release.
    slow = gateway_cluster.add_fault(
        r"^/apis/apps/v1/namespaces/gw-core-[^/]+/statefulsets(/[^/]+)?$", None, status=None, latency_ms=3000, count=1
    )
    second = _gateway(installed, "core")
    workers = {
        int(p["status"]["containerStatuses"][0]["containerID"].split("://")[1]): p["metadata"]["name"]
        for p in installed.pods("worker")
    }
    release = release_of(second["namespace"])
    busy = wait_until(
        lambda: [workers[sid] for sid in _helm_sessions(release) if sid in workers],
        "a worker to run the gateway's helm install",
        timeout=30,
    )
    installed.cluster.call("DELETE", f"/api/v1/namespaces/{NAMESPACE}/pods/{busy[0]}")
    gateway_cluster.call("DELETE", f"/_devcluster/faults/{slow}")
    status = _running(installed, second["id"])
    records = gateway_cluster.call(
        "GET", f"/api/v1/namespaces/{second['namespace']}/secrets?labelSelector=owner%3Dhelm"
    )["items"]
    labels = [r["metadata"]["labels"] for r in records]
    assert {label["name"] for label in labels} == {release_of(second["namespace"])}, labels
    deployed = [label for label in labels if label["status"] == "deployed"]
    assert len(deployed) == 1 and int(deployed[0]["version"]) == status["release"]["revision"], labels
    assert not [label for label in labels if label["status"].startswith("pending")], labels
    assert status["release"]["status"] == "deployed"
    wait_until(
        lambda: len(installed.pods("worker")) == 2 and all(_ready(p) for p in installed.pods("worker")),
        "the replacement worker",
        timeout=60,
    )

    # helm upgrade to a new image tag: the migration Job runs again, and no API request fails during the roll.
    failures: list[str] = []
    answered = [0]
    stop = threading.Event()

    def poll() -> None:
        # A connection per request, so that each one is routed anew (kube-proxy balances connections).
        while not stop.is_set():
            try:
                response = requests.get(
                    f"{installed.api_url}/api/v1/gateways/",
                    timeout=10,
                    headers={"Authorization": f"Token {installed.token}", "Connection": "close"},
                )
                if response.status_code != 200:
                    failures.append(f"{response.status_code} {response.text[:200]}")
                answered[0] += 1
            except requests.RequestException as exc:
                failures.append(repr(exc))
            stop.wait(0.05)

    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    installed.helm(
        "upgrade",
        RELEASE,
        str(CHART),
        "-n",
        NAMESPACE,
        "-f",
        str(installed.values_path),
        "--set",
        "image.tag=1.0.1",
        "--wait",
        "--timeout",
        "150s",
    )
    wait_until(
        lambda: (
            {c["image"] for p in installed.pods("api") for c in p["spec"]["containers"]} == {f"{IMAGE}:1.0.1"}
            and len(installed.pods("api")) == 2
        ),
        "only new API pods",
        timeout=60,
    )
    stop.set()
    poller.join(timeout=15)
    assert not failures, failures
    assert answered[0] > 0
    rerun = installed.kube(f"/apis/batch/v1/namespaces/{NAMESPACE}/jobs/{RELEASE}-controlplane-migrate")
    assert rerun["metadata"]["uid"] != migrate["metadata"]["uid"]
    assert rerun["status"]["succeeded"] == 1
    assert rerun["spec"]["template"]["spec"]["containers"][0]["image"] == f"{IMAGE}:1.0.1"

    # The same check fails when the catalog volume is an emptyDir per pod (the chart refuses to render that, so
    # the workers' Deployment is edited): the worker unpacks into its own directory, which no API pod reads.
    deployment_path = f"/apis/apps/v1/namespaces/{NAMESPACE}/deployments/{RELEASE}-controlplane-worker"
    deployment = installed.kube(deployment_path)
    volumes = deployment["spec"]["template"]["spec"]["volumes"]
    deployment["spec"]["template"]["spec"]["volumes"] = [
        {"name": v["name"], "emptyDir": {}} if v["name"] == "catalogs" else v for v in volumes
    ]
    installed.cluster.call("PUT", deployment_path, deployment)
    wait_until(
        lambda: (
            len(workers := installed.pods("worker")) == 2
            and all(
                _ready(p) and "emptyDir" in next(v for v in p["spec"]["volumes"] if v["name"] == "catalogs")
                for p in workers
            )
        ),
        "workers with a catalog emptyDir each",
        timeout=60,
    )
    registry.push_image("tests/chart-processes", "v2", [fbc_layer("v2")])
    isolated = installed.api(
        "POST",
        "/api/v1/catalogs/",
        json={
            "name": "isolated",
            "source": {"image": {"ref": f"{registry.host}/tests/chart-processes:v2"}},
        },
    )
    assert isolated.status_code == 201, isolated.text
    # Unpacked once is enough: from then on Serving flips, as the API pods find the entry missing (ContentLost)
    # and each new unpack lands in a worker's own directory again.
    wait_until(
        lambda: installed.api("GET", f"/api/v1/catalogs/{isolated.json()['id']}/").json()["status"]["last_unpacked"],
        "a worker to unpack the catalog",
        timeout=90,
    )
    assert not _served_by_each_api_pod(installed, "isolated", "v2")
