"""devcluster's process runtime: pods of the control plane image run as processes of this checkout, with their
environment, volumes and probes; restarts, graceful deletion, Jobs, Services and shutdown as a kubelet does."""

from __future__ import annotations

import base64
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.fixtures.devcluster import DevCluster, DevClusterError, start_devcluster
from tests.paths import PROJECT_ROOT
from tests.waiting import wait_until

pytestmark = pytest.mark.integration

IMAGE = "ghcr.io/example/controlplane"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevCluster]:
    with start_devcluster(tmp_path_factory.mktemp("processes"), pki=False, process_image_repository=IMAGE) as dc:
        yield dc


@pytest.fixture
def namespace(cluster: DevCluster) -> Iterator[str]:
    name = cluster.create_namespace("proc")
    wait_until(lambda: _get(cluster, f"/api/v1/namespaces/{name}/serviceaccounts/default"), "the default account")
    yield name
    cluster.delete_namespace(name)


def _get(cluster: DevCluster, path: str) -> dict[str, Any] | None:
    try:
        return cluster.call("GET", path)
    except DevClusterError:
        return None


def container(command: str, **extra: Any) -> dict[str, Any]:
    return {"name": "main", "image": f"{IMAGE}:any", "command": ["sh", "-c", command], **extra}


def create_pod(cluster: DevCluster, namespace: str, name: str, spec: dict[str, Any], **labels: str) -> None:
    body = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "labels": labels}, "spec": spec}
    cluster.call("POST", f"/api/v1/namespaces/{namespace}/pods", body)


def pod(cluster: DevCluster, namespace: str, name: str) -> dict[str, Any] | None:
    return _get(cluster, f"/api/v1/namespaces/{namespace}/pods/{name}")


def ready(found: dict[str, Any] | None) -> bool:
    conditions = ((found or {}).get("status") or {}).get("conditions") or []
    return any(c["type"] == "Ready" and c["status"] == "True" for c in conditions)


def log(cluster: DevCluster, namespace: str, name: str) -> str:
    return requests.get(f"{cluster.url}/api/v1/namespaces/{namespace}/pods/{name}/log", timeout=10).text


def test_environment_volumes_probes_and_a_service(cluster: DevCluster, namespace: str) -> None:
    secret = {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {"name": "greeting"},
        "data": {"word": base64.b64encode(b"hello").decode()},
    }
    cluster.call("POST", f"/api/v1/namespaces/{namespace}/secrets", secret)
    page = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "page"}, "data": {"page": "a page"}}
    cluster.call("POST", f"/api/v1/namespaces/{namespace}/configmaps", page)
    claim = {
        "apiVersion": "v1",
        "kind": "PersistentVolumeClaim",
        "metadata": {"name": "shared"},
        "spec": {"accessModes": ["ReadWriteMany"], "resources": {"requests": {"storage": "1Gi"}}},
    }
    cluster.call("POST", f"/api/v1/namespaces/{namespace}/persistentvolumeclaims", claim)
    script = (
        'echo "$MSG" > /shared/$POD && cp /etc/page/page /tmp/copied && touch /oops || echo read-only root;'
        ' id -u; cd /shared && exec python -m http.server "$PORT"'
    )
    spec = {
        "securityContext": {"runAsUser": 10001, "runAsGroup": 10001, "fsGroup": 10001},
        "containers": [
            container(
                script,
                ports=[{"name": "http", "containerPort": 8000}],
                env=[
                    {"name": "POD", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
                    {"name": "WORD", "valueFrom": {"secretKeyRef": {"name": "greeting", "key": "word"}}},
                    {"name": "MSG", "value": "$(WORD) from $(POD), $$(WORD)"},
                ],
                volumeMounts=[
                    {"name": "tmp", "mountPath": "/tmp"},
                    {"name": "shared", "mountPath": "/shared"},
                    {"name": "page", "mountPath": "/etc/page"},
                ],
                readinessProbe={"httpGet": {"path": "/", "port": "http"}, "periodSeconds": 1},
                securityContext={"readOnlyRootFilesystem": True},
            )
        ],
        "volumes": [
            {"name": "tmp", "emptyDir": {}},
            {"name": "shared", "persistentVolumeClaim": {"claimName": "shared"}},
            {"name": "page", "configMap": {"name": "page"}},
        ],
    }
    for name in ("web-a", "web-b"):
        create_pod(cluster, namespace, name, spec, app="web")
    service = {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {"name": "web"},
        "spec": {
            "type": "NodePort",
            "selector": {"app": "web"},
            "ports": [{"name": "http", "port": 80, "targetPort": "http"}],
        },
    }
    created = cluster.call("POST", f"/api/v1/namespaces/{namespace}/services", service)
    node_port = created["spec"]["ports"][0]["nodePort"]
    wait_until(lambda: all(ready(pod(cluster, namespace, n)) for n in ("web-a", "web-b")), "both pods Ready")

    assert pod(cluster, namespace, "web-a")["status"]["podIP"] == "127.0.0.1"
    assert "read-only root\n10001\n" in log(cluster, namespace, "web-a")
    # The claim is one directory for both pods: each serves what the other wrote.
    proxy = f"{cluster.url}/api/v1/namespaces/{namespace}/pods/web-a:http/proxy"
    assert requests.get(f"{proxy}/web-b", timeout=10).text == "hello from web-b, $(WORD)\n"
    service_url = f"{cluster.url}/api/v1/namespaces/{namespace}/services/web:http/proxy/web-a"
    assert requests.get(service_url, timeout=10).text == "hello from web-a, $(WORD)\n"
    # The NodePort alternates between the Ready pods, a connection each.
    wait_until(lambda: _answers(f"http://127.0.0.1:{node_port}/web-a"), "the NodePort listener")
    for _ in range(4):
        assert requests.get(f"http://127.0.0.1:{node_port}/web-b", timeout=10, headers={"Connection": "close"}).ok
    assert all("GET /web-b" in log(cluster, namespace, n) for n in ("web-a", "web-b"))

    # Without an fsGroup a fresh claim's root directory is root's: user 10001 cannot write there.
    fresh = {
        "apiVersion": "v1",
        "kind": "PersistentVolumeClaim",
        "metadata": {"name": "fresh"},
        "spec": {"accessModes": ["ReadWriteMany"], "resources": {"requests": {"storage": "1Gi"}}},
    }
    cluster.call("POST", f"/api/v1/namespaces/{namespace}/persistentvolumeclaims", fresh)
    create_pod(
        cluster,
        namespace,
        "no-group",
        {
            "securityContext": {"runAsUser": 10001},
            "containers": [
                container(
                    "touch /fresh/x || echo denied; exec sleep 100",
                    volumeMounts=[{"name": "fresh", "mountPath": "/fresh"}],
                )
            ],
            "volumes": [{"name": "fresh", "persistentVolumeClaim": {"claimName": "fresh"}}],
        },
    )
    wait_until(lambda: "denied" in log(cluster, namespace, "no-group"), "the write to be refused")

    # A terminating pod leaves the Service at once; SIGTERM ends it and the pod goes.
    cluster.call("DELETE", f"/api/v1/namespaces/{namespace}/pods/web-a")
    for _ in range(3):
        assert requests.get(service_url, timeout=10).ok
    wait_until(lambda: pod(cluster, namespace, "web-a") is None, "web-a to go")


def _answers(url: str) -> bool:
    try:
        return requests.get(url, timeout=2).ok
    except requests.RequestException:
        return False


def test_restarts_back_off_and_liveness(cluster: DevCluster, namespace: str) -> None:
    create_pod(cluster, namespace, "crash", {"containers": [container("echo crashed; exit 3")]})
    crashed = wait_until(
        lambda: (
            (p := pod(cluster, namespace, "crash"))
            and p["status"].get("containerStatuses")
            and p["status"]["containerStatuses"][0]["restartCount"] >= 2
            and "waiting" in p["status"]["containerStatuses"][0]["state"]
            and p
        ),
        "a crash loop",
    )
    status = crashed["status"]["containerStatuses"][0]
    assert status["state"]["waiting"]["reason"] == "CrashLoopBackOff"
    assert status["lastState"]["terminated"]["exitCode"] == 3
    assert crashed["status"]["phase"] == "Running" and not ready(crashed)

    liveness = {"exec": {"command": ["test", "-e", "/tmp/never"]}, "periodSeconds": 1, "failureThreshold": 2}
    create_pod(
        cluster,
        namespace,
        "unhealthy",
        {"terminationGracePeriodSeconds": 1, "containers": [container("exec sleep 1000", livenessProbe=liveness)]},
    )
    wait_until(
        lambda: (
            ((pod(cluster, namespace, "unhealthy") or {}).get("status", {}).get("containerStatuses") or [{}])[0].get(
                "restartCount", 0
            )
            >= 1
        ),
        "the liveness probe to restart the container",
    )
    events = cluster.call("GET", f"/api/v1/namespaces/{namespace}/events")["items"]
    reasons = {(e["involvedObject"]["name"], e["reason"], e["message"]) for e in events}
    assert {
        ("crash", "BackOff", "Back-off restarting failed container main"),
        ("unhealthy", "Unhealthy", "Liveness probe failed"),
        ("unhealthy", "Killing", "Container main failed its probe, will be restarted"),
        ("unhealthy", "Started", "Started container main"),
    } <= reasons


def test_graceful_deletion_sends_sigterm_then_sigkill(cluster: DevCluster, namespace: str) -> None:
    create_pod(
        cluster,
        namespace,
        "polite",
        {"containers": [container("trap 'echo got TERM; exit 0' TERM; echo up; while :; do sleep 0.1; done")]},
    )
    create_pod(
        cluster,
        namespace,
        "stubborn",
        {
            "terminationGracePeriodSeconds": 2,
            "containers": [container("trap '' TERM; echo up; while :; do sleep 0.1; done")],
        },
    )
    for name in ("polite", "stubborn"):
        wait_until(lambda name=name: "up" in log(cluster, namespace, name), f"{name} to start")
    logs = {
        name: next(Path(cluster.workdir, "process-runtime", "pods").glob(f"{namespace}_{name}_*/logs/main.log"))
        for name in ("polite", "stubborn")
    }
    pids = {
        name: int(pod(cluster, namespace, name)["status"]["containerStatuses"][0]["containerID"].split("//")[1])
        for name in ("polite", "stubborn")
    }
    for name in ("polite", "stubborn"):
        cluster.call("DELETE", f"/api/v1/namespaces/{namespace}/pods/{name}")
    terminating = pod(cluster, namespace, "stubborn")
    assert terminating is not None and terminating["metadata"]["deletionGracePeriodSeconds"] == 2
    wait_until(lambda: pod(cluster, namespace, "polite") is None, "the polite pod to go")
    assert "got TERM" in logs["polite"].read_text()
    assert pod(cluster, namespace, "stubborn") is not None  # still within its grace period
    wait_until(lambda: pod(cluster, namespace, "stubborn") is None, "the stubborn pod to be killed", timeout=10)
    assert not [name for name, pid in pids.items() if _group_alive(pid)]


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def test_jobs_see_real_exit_codes(cluster: DevCluster, namespace: str) -> None:
    def job(name: str, command: str) -> dict[str, Any]:
        return {
            "apiVersion": "batch/v1",
            "kind": "Job",
            "metadata": {"name": name},
            "spec": {
                "backoffLimit": 1,
                "template": {"spec": {"restartPolicy": "Never", "containers": [container(command)]}},
            },
        }

    for name, command in (("works", "exit 0"), ("fails", "echo broken; exit 1")):
        cluster.call("POST", f"/apis/batch/v1/namespaces/{namespace}/jobs", job(name, command))

    def finished(name: str) -> dict[str, Any] | None:
        status = (_get(cluster, f"/apis/batch/v1/namespaces/{namespace}/jobs/{name}") or {}).get("status") or {}
        return next((c for c in status.get("conditions") or [] if c["type"] in ("Complete", "Failed")), None)

    assert wait_until(lambda: finished("works"), "the job to complete")["type"] == "Complete"
    failed = wait_until(lambda: finished("fails"), "the job to fail")
    assert (failed["type"], failed["reason"]) == ("Failed", "BackoffLimitExceeded")
    pods = cluster.call("GET", f"/api/v1/namespaces/{namespace}/pods?labelSelector=job-name%3Dfails")["items"]
    assert [p["status"]["phase"] for p in pods] == ["Failed", "Failed"]
    assert {p["status"]["containerStatuses"][0]["state"]["terminated"]["exitCode"] for p in pods} == {1}


def test_other_images_keep_the_simulated_kubelet(cluster: DevCluster, namespace: str) -> None:
    create_pod(cluster, namespace, "other", {"containers": [{"name": "main", "image": "nginx:1.27"}]})
    running = wait_until(lambda: ready(p := pod(cluster, namespace, "other")) and p, "the simulated pod")
    assert running["status"]["podIP"] != "127.0.0.1"
    assert running["status"]["containerStatuses"][0]["containerID"].startswith("containerd://")


def test_a_checkout_other_users_cannot_enter_still_serves_the_pods_user(tmp_path: Path) -> None:
    """A clone made in `mktemp -d` is 0700; the image's WORKDIR must still be open to uid 10001, as a real image's
    is. The checkout here is a 0700 directory of links to this checkout's entries."""
    root = tmp_path / "closed-checkout"
    root.mkdir(mode=0o700)
    for entry in PROJECT_ROOT.iterdir():
        (root / entry.name).symlink_to(entry)
    with start_devcluster(tmp_path / "dc", pki=False, process_image_repository=IMAGE, process_root=root) as dc:
        namespace = dc.create_namespace("proc")
        wait_until(lambda: _get(dc, f"/api/v1/namespaces/{namespace}/serviceaccounts/default"), "the default account")
        script = "id -u; ls -ld /opt/controlplane; python -c 'import gateways.values as m; print(m.__file__)'"
        spec = {
            "restartPolicy": "Never",
            "securityContext": {"runAsUser": 10001, "runAsGroup": 10001},
            "containers": [container(script, securityContext={"readOnlyRootFilesystem": True})],
        }
        create_pod(dc, namespace, "closed", spec)
        finished = ("Succeeded", "Failed")
        done = wait_until(
            lambda: (p := pod(dc, namespace, "closed")) and p["status"].get("phase") in finished and p,
            "the pod to finish",
        )
        output = log(dc, namespace, "closed")
        assert done["status"]["phase"] == "Succeeded", output
        lines = output.splitlines()
        assert lines[0] == "10001"
        assert lines[1].startswith("drwxr-xr-x"), lines[1]
        assert lines[-1] == "/opt/controlplane/gateways/values.py"


def test_shutdown_leaves_no_process(tmp_path: Path) -> None:
    dc = start_devcluster(tmp_path, pki=False, process_image_repository=IMAGE)
    with dc:
        namespace = dc.create_namespace("proc")
        wait_until(lambda: _get(dc, f"/api/v1/namespaces/{namespace}/serviceaccounts/default"), "the default account")
        create_pod(dc, namespace, "forever", {"containers": [container("sh -c 'sleep 1000' & exec sleep 1000")]})
        running = wait_until(lambda: ready(p := pod(dc, namespace, "forever")) and p, "the pod to run")
        group = int(running["status"]["containerStatuses"][0]["containerID"].split("//")[1])
        assert _group_alive(group)
        assert dc.stop() == 0
    assert not _group_alive(group)
