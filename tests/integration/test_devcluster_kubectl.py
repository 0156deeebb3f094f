"""kubectl against devcluster: client-side and server-side apply, get -o json, delete."""

from __future__ import annotations

import json
import os
import subprocess
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.devcluster import DevCluster
from tests.paths import KUBECTL

pytestmark = pytest.mark.integration


MANIFEST = """\
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  level: "{level}"
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  selector:
    matchLabels: {{app: api}}
  template:
    metadata:
      labels: {{app: api}}
    spec:
      containers:
        - name: api
          image: "nginx:{level}"
          env: [{{name: LEVEL, value: "{level}"}}]
"""


@pytest.fixture
def kubectl(devcluster: DevCluster, devcluster_namespace: str, tmp_path: Path) -> Any:
    env = {**os.environ, "KUBECONFIG": str(devcluster.kubeconfig), "HOME": str(tmp_path)}

    def run(*args: str) -> str:
        command = [str(KUBECTL), "-n", devcluster_namespace, *args]
        result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, f"kubectl {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}"
        assert "warning" not in result.stderr.lower(), result.stderr
        return result.stdout

    return run


def _write(tmp_path: Path, level: str) -> str:
    path = tmp_path / f"manifest-{level}.yaml"
    path.write_text(MANIFEST.format(level=level))
    return str(path)


def test_client_side_apply_get_and_delete(kubectl: Any, tmp_path: Path) -> None:
    assert "configmap/settings created" in kubectl("apply", "-f", _write(tmp_path, "1"))
    output = kubectl("apply", "-f", _write(tmp_path, "2"))
    assert "configmap/settings configured" in output and "deployment.apps/api configured" in output

    config = json.loads(kubectl("get", "configmap", "settings", "-o", "json"))
    assert config["data"] == {"level": "2"}
    assert "kubectl.kubernetes.io/last-applied-configuration" in config["metadata"]["annotations"]
    deployment = json.loads(kubectl("get", "deployment", "api", "-o", "json"))
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    assert container["image"] == "nginx:2" and container["env"] == [{"name": "LEVEL", "value": "2"}]

    kubectl("delete", "-f", _write(tmp_path, "2"))
    listing = json.loads(kubectl("get", "configmaps,deployments", "-o", "json"))
    assert listing["items"] == []


def test_server_side_apply(kubectl: Any, tmp_path: Path) -> None:
    assert "serverside-applied" in kubectl("apply", "--server-side", "-f", _write(tmp_path, "1"))
    kubectl("apply", "--server-side", "-f", _write(tmp_path, "3"))
    config = json.loads(kubectl("get", "configmap", "settings", "-o", "json"))
    assert config["data"] == {"level": "3"}
    kubectl("delete", "configmap", "settings")
    assert json.loads(kubectl("get", "configmaps", "-o", "json"))["items"] == []


def test_imperative_create_sends_protobuf_that_devcluster_decodes(kubectl: Any, devcluster: DevCluster) -> None:
    suffix = uuid.uuid4().hex[:6]
    assert f"namespace/proto-{suffix} created" in kubectl("create", "namespace", f"proto-{suffix}")
    assert json.loads(kubectl("get", "namespace", f"proto-{suffix}", "-o", "json"))["status"]["phase"] == "Active"
    assert "configmap/proto created" in kubectl("create", "configmap", "proto", "--from-literal=key=value")
    assert json.loads(kubectl("get", "configmap", "proto", "-o", "json"))["data"] == {"key": "value"}
    devcluster.delete_namespace(f"proto-{suffix}")


def test_imperative_rbac_creates_are_decoded_from_protobuf(kubectl: Any, devcluster: DevCluster) -> None:
    """`kubectl create role|rolebinding|clusterrole|clusterrolebinding` send protobuf, as to a real API server."""
    suffix = uuid.uuid4().hex[:6]
    kubectl("create", "role", "reader", "--verb=get,list", "--resource=pods,configmaps", "--resource-name=one")
    role = json.loads(kubectl("get", "role", "reader", "-o", "json"))
    assert role["rules"] == [
        {"verbs": ["get", "list"], "apiGroups": [""], "resources": ["pods", "configmaps"], "resourceNames": ["one"]},
    ]
    kubectl("create", "rolebinding", "reader", "--role=reader", "--user=ann", "--serviceaccount=other:builder")
    binding = json.loads(kubectl("get", "rolebinding", "reader", "-o", "json"))
    assert binding["roleRef"] == {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "reader"}
    assert binding["subjects"] == [
        {"kind": "User", "apiGroup": "rbac.authorization.k8s.io", "name": "ann"},
        {"kind": "ServiceAccount", "name": "builder", "namespace": "other"},
    ]
    kubectl("create", "clusterrole", f"urls-{suffix}", "--verb=get", "--non-resource-url=/healthz")
    cluster_role = json.loads(kubectl("get", "clusterrole", f"urls-{suffix}", "-o", "json"))
    assert cluster_role["rules"] == [{"verbs": ["get"], "nonResourceURLs": ["/healthz"]}]
    kubectl("create", "clusterrolebinding", f"urls-{suffix}", f"--clusterrole=urls-{suffix}", "--group=ops")
    cluster_binding = json.loads(kubectl("get", "clusterrolebinding", f"urls-{suffix}", "-o", "json"))
    assert cluster_binding["subjects"] == [{"kind": "Group", "apiGroup": "rbac.authorization.k8s.io", "name": "ops"}]
    assert cluster_binding["roleRef"]["kind"] == "ClusterRole"
    for plural in ("clusterrolebindings", "clusterroles"):
        devcluster.call("DELETE", f"/apis/rbac.authorization.k8s.io/v1/{plural}/urls-{suffix}")
