"""Server lifecycle and wire details: --faults files, clean SIGTERM, protobuf bodies, dry runs."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.fixtures.devcluster import DevCluster, DevClusterError, start_devcluster

pytestmark = pytest.mark.integration


def _field(number: int, payload: bytes) -> bytes:
    """A length-delimited protobuf field (lengths here stay below 128, so one varint byte)."""
    assert len(payload) < 128
    return bytes([number << 3 | 2, len(payload)]) + payload


def _protobuf_object(api_version: str, kind: str, raw: bytes) -> bytes:
    type_meta = _field(1, api_version.encode()) + _field(2, kind.encode())
    return b"k8s\x00" + _field(1, type_meta) + _field(2, raw)


def _post(cluster: DevCluster, path: str, body: bytes, content_type: str) -> tuple[int, dict]:
    request = urllib.request.Request(cluster.url + path, data=body, method="POST")
    request.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_faults_file_and_clean_sigterm(tmp_path: Path) -> None:
    faults = tmp_path / "faults.yaml"
    faults.write_text("- {path_regex: '^/api/v1/namespaces/default/pods$', status: 503}\n")
    cluster = start_devcluster(tmp_path / "cluster", faults_file=faults)
    try:
        assert [(f["path_regex"], f["status"]) for f in cluster.faults()] == [
            ("^/api/v1/namespaces/default/pods$", 503)
        ]
        with pytest.raises(DevClusterError, match="503"):
            cluster.call("GET", "/api/v1/namespaces/default/pods")
    finally:
        assert cluster.stop() == 0


def test_protobuf_config_map_is_decoded(devcluster: DevCluster, devcluster_namespace: str) -> None:
    entry = _field(1, b"greeting") + _field(2, b"hello")
    metadata = _field(1, b"from-protobuf") + _field(11, _field(1, b"app") + _field(2, b"demo"))
    body = _protobuf_object("v1", "ConfigMap", _field(1, metadata) + _field(2, entry))
    path = f"/api/v1/namespaces/{devcluster_namespace}/configmaps"
    code, created = _post(devcluster, path, body, "application/vnd.kubernetes.protobuf")
    assert code == 201
    assert created["data"] == {"greeting": "hello"}
    assert created["metadata"]["labels"] == {"app": "demo"}


def test_protobuf_of_unknown_kind_is_unsupported(devcluster: DevCluster, devcluster_namespace: str) -> None:
    body = _protobuf_object("apps/v1", "Deployment", _field(1, _field(1, b"d")))
    path = f"/apis/apps/v1/namespaces/{devcluster_namespace}/deployments"
    code, status = _post(devcluster, path, body, "application/vnd.kubernetes.protobuf")
    assert code == 415
    assert (status["kind"], status["reason"]) == ("Status", "UnsupportedMediaType")


def test_dry_run_create_does_not_persist(devcluster: DevCluster, devcluster_namespace: str) -> None:
    path = f"/api/v1/namespaces/{devcluster_namespace}/configmaps"
    body = json.dumps({"metadata": {"name": "dry"}, "data": {"a": "b"}}).encode()
    code, created = _post(devcluster, f"{path}?dryRun=All", body, "application/json")
    assert code == 201 and created["metadata"]["uid"]
    assert devcluster.call("GET", path)["items"] == []
