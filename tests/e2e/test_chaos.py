"""Chaos on a live stack of its own: PostgreSQL, Redis and the cluster's API server are restarted (real
process restarts on the same port and data) while gateways are created and changed. Every gateway must
converge to its latest spec with exactly one deployed Helm release.

The stack (gunicorn API, Celery worker and beat, cluster watcher) runs against a dedicated PostgreSQL, Redis
and devcluster (``--state-file``, as an API server keeps etcd), never the machine's shared services.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from kubernetes import client

from tests.e2e.conftest import kube_api
from tests.fixtures.devcluster import DevCluster, start_devcluster
from tests.fixtures.services import Postgres, Redis, dedicated_postgres, dedicated_redis
from tests.fixtures.stack import ApiSession, Stack, launch, stack_env
from tests.paths import PROJECT_ROOT
from tests.ports import free_port
from tests.waiting import http_status, wait_until

pytestmark = pytest.mark.e2e

IMAGE = "ghcr.io/nvidia/openshell/gateway:{}"
QUEUE = "celery"  # Celery's default queue: a Redis list in the broker's database


@dataclass
class Chaos:
    """The dedicated services, the stack on them, an admin session, and the devcluster's restart recipe."""

    postgres: Postgres
    redis: Redis
    stack: Stack
    api: ApiSession
    cluster_dir: Path
    cluster_args: tuple[str, ...]
    cluster: DevCluster | None = None

    def start_cluster(self) -> DevCluster:
        self.cluster = start_devcluster(
            self.cluster_dir, ready_delay=0.3, extra_presets=("agent-sandbox",), extra_args=self.cluster_args
        )
        return self.cluster

    def manage(self, *args: str) -> str:
        result = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=PROJECT_ROOT,
            env=self.stack.env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout


@pytest.fixture
def chaos(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Chaos]:
    cluster_dir = tmp_path_factory.mktemp("chaos-k8s")
    cluster_args = (
        "--port",
        str(free_port()),
        "--state-file",
        str(cluster_dir / "state.json"),
        "--state-interval",
        "0.2",
    )
    with dedicated_postgres() as postgres, dedicated_redis(tmp_path_factory.mktemp("chaos-redis")) as broker:
        env = {**stack_env(postgres.url, broker.url(0), tmp_path_factory), "CACHE_URL": broker.url(1)}
        stack = Stack(f"http://127.0.0.1:{free_port()}", env, tmp_path_factory.mktemp("chaos-logs"))
        chaos = Chaos(postgres, broker, stack, ApiSession(stack.api_url, ""), cluster_dir, cluster_args)
        chaos.start_cluster()
        try:
            chaos.manage("migrate", "--noinput")
            chaos.manage("createsuperuser", "--noinput", "--username", "chaos", "--email", "chaos@example.test")
            chaos.api.headers["Authorization"] = f"Token {chaos.manage('createtoken', 'chaos').strip()}"
            chaos.manage(
                "addcluster",
                "chaos",
                "--kubeconfig",
                str(chaos.cluster.kubeconfig),
                "--base-domain",
                "chaos.example.test",
            )
            launch(stack)
            yield chaos
        finally:
            stack.stop_all()
            if chaos.cluster is not None:
                chaos.cluster.stop()


def create(api: ApiSession, name: str) -> dict[str, Any]:
    body = {
        "name": name,
        "cluster": "chaos",
        "image": IMAGE.format("1.0.0"),
        "supervisor_image": "ghcr.io/nvidia/openshell/supervisor:1",
    }
    response = api.post("/api/v1/gateways/", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def change_image(api: ApiSession, gateway: dict[str, Any], tag: str) -> None:
    response = api.patch(f"/api/v1/gateways/{gateway['id']}/", json={"image": IMAGE.format(tag)})
    assert response.status_code == 200, response.text


def releases(dc: DevCluster, namespace: str) -> list[dict[str, str]]:
    secrets = client.CoreV1Api(kube_api(dc)).list_namespaced_secret(namespace, label_selector="owner=helm").items
    return [s.metadata.labels for s in secrets]


def converged(api: ApiSession, gateway_id: str) -> dict[str, Any] | None:
    body = api.get(f"/api/v1/gateways/{gateway_id}/").json()
    status = body["status"]
    return body if status["phase"] == "Running" and status["observed_generation"] == body["generation"] else None


def not_ready(chaos: Chaos, what: str) -> None:
    """Wait until the API's readiness check has seen ``what`` gone: the outage has reached the stack. The check
    waits out its own connect timeouts (the broker's and the cache's, both on the killed Redis), so it is given
    time to answer."""
    readyz = f"{chaos.stack.api_url}/readyz"
    wait_until(lambda: http_status(readyz, timeout=30) == 503, f"the API to see {what} gone")


def restart_postgres_while_passes_run(chaos: Chaos, gateways: list[dict[str, Any]]) -> None:
    assert chaos.cluster is not None
    wait_until(lambda: any(releases(chaos.cluster, g["namespace"]) for g in gateways), "helm to start installing")
    chaos.postgres.stop("immediate")  # a crash: every connection of the API, worker, beat and watcher dies
    not_ready(chaos, "the database")
    chaos.postgres.start()


def restart_redis_while_tasks_are_queued(chaos: Chaos, gateways: list[dict[str, Any]]) -> tuple[dict[str, Any], int]:
    """Change ``gateways`` and create one more while slow workload writes keep both worker slots busy, so the
    tasks wait in the queue; returns the new gateway and how many tasks Redis lost (it keeps nothing on disk)."""
    assert chaos.cluster is not None
    chaos.cluster.add_fault(
        r"/apis/apps/v1/namespaces/gw-[^/]+/statefulsets/", method="PATCH", status=None, latency_ms=1500
    )
    for gateway in gateways:
        change_image(chaos.api, gateway, "1.0.1")
    created = create(chaos.api, "c3")
    broker = chaos.redis.client(0)
    queued = wait_until(lambda: broker.llen(QUEUE), "tasks waiting in the broker's queue", interval=0.05)
    chaos.redis.kill()
    not_ready(chaos, "the broker")
    chaos.redis.start()
    return created, queued


def restart_cluster_mid_install(chaos: Chaos, changed: dict[str, Any]) -> dict[str, Any]:
    """Create a gateway and change ``changed``; the API server goes away (SIGTERM) while helm waits on a slow
    workload write of the new install. Returns the new gateway."""
    assert chaos.cluster is not None
    chaos.cluster.clear_faults()
    new = create(chaos.api, "c4")
    chaos.cluster.add_fault(
        rf"/apis/apps/v1/namespaces/{new['namespace']}/statefulsets/", method="PATCH", status=None, latency_ms=5000
    )
    change_image(chaos.api, changed, "1.0.2")
    wait_until(
        lambda: any(r["status"] == "pending-install" for r in releases(chaos.cluster, new["namespace"])),
        "helm to start the install",
        interval=0.05,
    )
    wait_until(
        lambda: any(
            r["method"] == "PATCH" and re.search(r"/statefulsets/", r["path"])
            for r in chaos.cluster.requests()
            if new["namespace"] in r["path"]
        ),
        "helm to write the workload",
    )
    assert chaos.cluster.stop() == 0
    chaos.start_cluster()  # same port and state file; the faults are gone
    return new


def assert_converged(chaos: Chaos, gateway: dict[str, Any]) -> None:
    """Running on the latest generation, the workload on the latest image, one deployed release whose
    revision is the one the status reports, and no release left pending."""
    assert chaos.cluster is not None
    body = wait_until(
        lambda: converged(chaos.api, gateway["id"]), f"gateway {gateway['name']} to converge", timeout=120, interval=0.5
    )
    namespace = body["namespace"]
    labels = releases(chaos.cluster, namespace)
    deployed = [r for r in labels if r["status"] == "deployed"]
    assert len(deployed) == 1, labels
    assert int(deployed[0]["version"]) == body["status"]["release"]["revision"], (labels, body["status"])
    assert not [r for r in labels if r["status"].startswith("pending")], labels
    apps = client.AppsV1Api(kube_api(chaos.cluster))
    images = {
        c.image for s in apps.list_namespaced_stateful_set(namespace).items for c in s.spec.template.spec.containers
    }
    assert body["image"] in images, (body["image"], images)


def test_gateways_converge_through_database_broker_and_cluster_restarts(chaos: Chaos) -> None:
    started = time.monotonic()
    gateways = [create(chaos.api, f"c{n}") for n in range(3)]
    restart_postgres_while_passes_run(chaos, gateways)
    created, queued = restart_redis_while_tasks_are_queued(chaos, gateways)
    gateways += [created, restart_cluster_mid_install(chaos, gateways[0])]
    restarts_done = time.monotonic()
    for gateway in gateways:
        assert_converged(chaos, gateway)
    generations = [chaos.api.get(f"/api/v1/gateways/{g['id']}/").json()["generation"] for g in gateways]
    assert generations == [3, 2, 2, 1, 1]
    exited = {name: p.returncode for name, p in chaos.stack.processes.items() if p.poll() is not None}
    assert not exited, f"stack processes exited: {exited}"
    print(
        f"chaos: {len(gateways)} gateways, {queued} tasks queued at the Redis kill; restarts took "
        f"{restarts_done - started:.0f}s, convergence {time.monotonic() - restarts_done:.0f}s"
    )
