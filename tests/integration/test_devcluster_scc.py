"""OpenShift's SecurityContextConstraints on devcluster, driven by real kubectl: each namespace's UID range, the
restricted-v2 default that assigns a UID from it and refuses one outside it, the FailedCreate a controller records,
and a grant of `anyuid` through RBAC `use` of `system:openshift:scc:anyuid`, as on OpenShift 4."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import yaml

from tests.fixtures.devcluster import DevCluster, start_devcluster
from tests.paths import KUBECTL
from tests.waiting import wait_until

pytestmark = pytest.mark.integration

NAMESPACE = "scc-demo"
ACCOUNT = f"system:serviceaccount:{NAMESPACE}:default"


@pytest.fixture(scope="module")
def openshift(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevCluster]:
    with start_devcluster(tmp_path_factory.mktemp("scc"), flavour="openshift", pki=False) as dc:
        yield dc


@pytest.fixture(scope="module")
def kubectl(
    openshift: DevCluster, tmp_path_factory: pytest.TempPathFactory
) -> Callable[..., subprocess.CompletedProcess]:
    env = {**os.environ, "KUBECONFIG": str(openshift.kubeconfig), "HOME": str(tmp_path_factory.mktemp("home"))}

    def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
        return subprocess.run([str(KUBECTL), *args], env=env, input=stdin, capture_output=True, text=True, timeout=60)

    assert run("create", "namespace", NAMESPACE).returncode == 0
    return run


def ok(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 0, f"{result.args}:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def pod(name: str, run_as_user: int | None = None) -> dict[str, Any]:
    context = {} if run_as_user is None else {"runAsUser": run_as_user}
    container = {"name": "app", "image": "registry.example/app:1", "securityContext": context}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name}, "spec": {"containers": [container]}}


def first_uid(kubectl: Callable[..., subprocess.CompletedProcess]) -> int:
    namespace = json.loads(ok(kubectl("get", "namespace", NAMESPACE, "-o", "json")))
    uid_range = namespace["metadata"]["annotations"]["openshift.io/sa.scc.uid-range"]
    start, size = (int(part) for part in uid_range.split("/"))
    assert size == 10000 and start >= 1_000_000_000
    return start


def test_restricted_v2_assigns_the_namespaces_first_uid_and_refuses_another(kubectl) -> None:
    start = first_uid(kubectl)
    created = json.loads(
        ok(
            kubectl(
                "--as", ACCOUNT, "-n", NAMESPACE, "create", "-f", "-", "-o", "json", stdin=json.dumps(pod("assigned"))
            )
        )
    )
    assert created["metadata"]["annotations"]["openshift.io/scc"] == "restricted-v2"
    assert created["spec"]["containers"][0]["securityContext"]["runAsUser"] == start

    refused = kubectl("--as", ACCOUNT, "-n", NAMESPACE, "create", "-f", "-", stdin=json.dumps(pod("fixed", 1000)))
    assert refused.returncode != 0
    assert "unable to validate against any security context constraint" in refused.stderr
    assert (
        f"provider restricted-v2: .containers[0].runAsUser: Invalid value: 1000: must be in the ranges: "
        f"[{start}, {start + 9999}]" in refused.stderr
    ), refused.stderr


def test_a_controllers_refused_pod_is_a_failed_create_until_anyuid_is_granted(kubectl) -> None:
    template = pod("web", 1000)
    deployment = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web"},
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}}, "spec": template["spec"]},
        },
    }
    ok(kubectl("-n", NAMESPACE, "apply", "-f", "-", stdin=yaml.safe_dump(deployment)))

    def failed_create() -> list[dict[str, Any]]:
        events = json.loads(ok(kubectl("-n", NAMESPACE, "get", "events", "-o", "json")))["items"]
        return [e for e in events if e["reason"] == "FailedCreate"]

    (event, *_) = wait_until(failed_create, "FailedCreate")
    assert event["involvedObject"]["kind"] == "ReplicaSet"
    assert "restricted-v2" in event["message"] and "runAsUser: Invalid value: 1000" in event["message"]

    ok(
        kubectl(
            "-n",
            NAMESPACE,
            "create",
            "rolebinding",
            "web-anyuid",
            "--clusterrole=system:openshift:scc:anyuid",
            f"--serviceaccount={NAMESPACE}:default",
        )
    )

    def admitted() -> list[dict[str, Any]]:
        return json.loads(ok(kubectl("-n", NAMESPACE, "get", "pods", "-l", "app=web", "-o", "json")))["items"]

    (running,) = wait_until(admitted, "the pod admitted once anyuid is granted")
    assert running["metadata"]["annotations"]["openshift.io/scc"] == "anyuid"
    assert running["spec"]["containers"][0]["securityContext"]["runAsUser"] == 1000
