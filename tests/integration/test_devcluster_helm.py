"""The real helm v4 binary against devcluster: install, status, upgrade, list, history, uninstall, --wait, hooks."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.devcluster import DevCluster, start_devcluster
from tests.paths import HELM, PROJECT_ROOT

pytestmark = pytest.mark.integration

CHART = PROJECT_ROOT / "tests" / "charts" / "smallapp"
# Workloads turn ready this long after they are first seen, so `--wait` has something to wait for.
READY_DELAY = 0.6


@pytest.fixture(scope="module")
def slow_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevCluster]:
    with start_devcluster(tmp_path_factory.mktemp("helm-devcluster"), ready_delay=READY_DELAY) as cluster:
        yield cluster


@pytest.fixture
def helm(slow_cluster: DevCluster, tmp_path: Path) -> Any:
    env = {
        **os.environ,
        "KUBECONFIG": str(slow_cluster.kubeconfig),
        "HELM_DRIVER": "secret",
        "HELM_CACHE_HOME": str(tmp_path / "helm-cache"),
        "HELM_CONFIG_HOME": str(tmp_path / "helm-config"),
        "HELM_DATA_HOME": str(tmp_path / "helm-data"),
    }

    def run(*args: str) -> str:
        result = subprocess.run([str(HELM), *args], env=env, capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, f"helm {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}"
        return result.stdout

    return run


@pytest.fixture
def namespace(slow_cluster: DevCluster) -> Iterator[str]:
    name = slow_cluster.create_namespace("helm")
    yield name
    slow_cluster.delete_namespace(name)


def _deployment(cluster: DevCluster, namespace: str, name: str) -> dict[str, Any]:
    return cluster.call("GET", f"/apis/apps/v1/namespaces/{namespace}/deployments/{name}")


def _watched_paths(cluster: DevCluster) -> list[str]:
    return [r["path"] for r in cluster.requests() if "watch=true" in r["query"] or "watch=1" in r["query"]]


def _is_ready(deployment: dict[str, Any]) -> bool:
    status = deployment.get("status") or {}
    return status.get("readyReplicas") == deployment["spec"]["replicas"]


def test_install_status_upgrade_list_history_uninstall(helm: Any, slow_cluster: DevCluster, namespace: str) -> None:
    slow_cluster.clear_requests()
    helm("install", "web", str(CHART), "-n", namespace)
    assert _watched_paths(slow_cluster) == [], "without --wait helm must not wait"

    status = json.loads(helm("status", "web", "-n", namespace, "-o", "json"))
    assert status["info"]["status"] == "deployed"
    assert status["version"] == 1
    config = slow_cluster.call("GET", f"/api/v1/namespaces/{namespace}/configmaps/web-config")
    assert config["data"] == {"message": "hello"}
    service = slow_cluster.call("GET", f"/api/v1/namespaces/{namespace}/services/web")
    assert service["spec"]["clusterIP"].startswith("10.96.")

    helm("upgrade", "web", str(CHART), "-n", namespace, "--set", "replicaCount=3", "--set", "message=bye")
    deployment = _deployment(slow_cluster, namespace, "web")
    assert deployment["spec"]["replicas"] == 3
    assert deployment["metadata"]["generation"] == 2
    config = slow_cluster.call("GET", f"/api/v1/namespaces/{namespace}/configmaps/web-config")
    assert config["data"] == {"message": "bye"}

    releases = json.loads(helm("list", "-A", "-o", "json"))
    assert {"name": "web", "namespace": namespace, "revision": "2", "status": "deployed"}.items() <= {
        k: v for r in releases if r["name"] == "web" and r["namespace"] == namespace for k, v in r.items()
    }.items()
    history = json.loads(helm("history", "web", "-n", namespace, "-o", "json"))
    assert [(h["revision"], h["status"]) for h in history] == [(1, "superseded"), (2, "deployed")]

    helm("uninstall", "web", "-n", namespace)
    for path in (
        f"/api/v1/namespaces/{namespace}/configmaps",
        f"/apis/apps/v1/namespaces/{namespace}/deployments",
        f"/api/v1/namespaces/{namespace}/secrets",
    ):
        assert slow_cluster.call("GET", path)["items"] == []
    assert json.loads(helm("list", "-n", namespace, "-o", "json")) == []


def test_release_records_are_protobuf_secrets(helm: Any, slow_cluster: DevCluster, namespace: str) -> None:
    slow_cluster.clear_requests()
    helm("install", "proto", str(CHART), "-n", namespace)
    writes = [
        r
        for r in slow_cluster.requests()
        if r["path"] == f"/api/v1/namespaces/{namespace}/secrets" and r["method"] == "POST"
    ]
    assert writes and writes[0]["content_type"] == "application/vnd.kubernetes.protobuf"
    selector = "owner=helm,name=proto"
    secrets = slow_cluster.call("GET", f"/api/v1/namespaces/{namespace}/secrets?labelSelector={selector}")["items"]
    assert [s["metadata"]["name"] for s in secrets] == ["sh.helm.release.v1.proto.v1"]
    assert secrets[0]["type"] == "helm.sh/release.v1"
    assert secrets[0]["metadata"]["labels"]["status"] == "deployed"


def test_install_and_upgrade_with_wait_wait_for_readiness(helm: Any, slow_cluster: DevCluster, namespace: str) -> None:
    slow_cluster.clear_requests()
    helm("install", "waited", str(CHART), "-n", namespace, "--wait", "--timeout", "30s")
    assert f"/apis/apps/v1/namespaces/{namespace}/deployments" in _watched_paths(slow_cluster)
    assert _is_ready(_deployment(slow_cluster, namespace, "waited"))

    helm("upgrade", "waited", str(CHART), "-n", namespace, "--set", "replicaCount=2", "--wait", "--timeout", "30s")
    deployment = _deployment(slow_cluster, namespace, "waited")
    assert deployment["status"]["observedGeneration"] == deployment["metadata"]["generation"] == 2
    assert _is_ready(deployment)
    helm("uninstall", "waited", "-n", namespace, "--wait", "--timeout", "30s")


def test_pre_install_hook_job_completes_before_install(helm: Any, slow_cluster: DevCluster, namespace: str) -> None:
    helm(
        "install", "hooked", str(CHART), "-n", namespace, "--set", "hookJob.enabled=true", "--wait", "--timeout", "30s"
    )
    job = slow_cluster.call("GET", f"/apis/batch/v1/namespaces/{namespace}/jobs/hooked-pre-install")
    assert job["status"]["succeeded"] == 1
    assert {"type": "Complete", "status": "True"}.items() <= job["status"]["conditions"][-1].items()
    status = json.loads(helm("status", "hooked", "-n", namespace, "-o", "json"))
    assert status["info"]["status"] == "deployed"
    assert [hook["name"] for hook in status["hooks"]] == ["hooked-pre-install"]
