"""`--state-file`: a restarted devcluster keeps its objects, uids, CRDs and a rising resourceVersion."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from tests.fixtures.devcluster import DevCluster, DevClusterError, start_devcluster
from tests.ports import free_port
from tests.waiting import wait_until

pytestmark = pytest.mark.integration

SANDBOXES = "/apis/agents.x-k8s.io/v1alpha1/namespaces/default/sandboxes"


def restartable(workdir: Path, port: int, *extra: str) -> DevCluster:
    args = ("--port", str(port), "--state-file", str(workdir / "state.json"), "--state-interval", "0.2", *extra)
    return start_devcluster(workdir, extra_presets=("agent-sandbox",), extra_args=args)


def config_map(name: str) -> dict:
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": {"k": name}}


def test_sigterm_restart_keeps_objects_and_resource_versions_rise(tmp_path: Path) -> None:
    port = free_port()
    first = restartable(tmp_path, port)
    try:
        kept = first.call("POST", "/api/v1/namespaces/default/configmaps", config_map("kept"))
        first.call("POST", "/api/v1/namespaces/default/configmaps", config_map("gone"))
        first.call("DELETE", "/api/v1/namespaces/default/configmaps/gone")
        namespace = first.create_namespace("app")
    finally:
        assert first.stop() == 0
    second = restartable(tmp_path, port)
    try:
        assert second.url == first.url
        again = second.call("GET", "/api/v1/namespaces/default/configmaps/kept")
        assert again["metadata"] == kept["metadata"]
        with pytest.raises(DevClusterError, match="404"):
            second.call("GET", "/api/v1/namespaces/default/configmaps/gone")
        assert second.call("GET", f"/api/v1/namespaces/{namespace}")["status"]["phase"] == "Active"
        assert second.call("GET", SANDBOXES)["items"] == []  # the preset CRD is still served
        newer = second.call("POST", "/api/v1/namespaces/default/configmaps", config_map("new"))
        assert int(newer["metadata"]["resourceVersion"]) > int(kept["metadata"]["resourceVersion"]) + 2
        old_rv = kept["metadata"]["resourceVersion"]
        watch = second.call("GET", f"/api/v1/namespaces/default/configmaps?watch=1&resourceVersion={old_rv}")
        assert (watch["type"], watch["object"]["code"]) == ("ERROR", 410)  # no watch history: clients relist
    finally:
        assert second.stop() == 0


def test_sigkill_keeps_what_the_last_periodic_save_held(tmp_path: Path) -> None:
    port = free_port()
    first = restartable(tmp_path, port)
    first.call("POST", "/api/v1/namespaces/default/configmaps", config_map("saved"))
    saved_rv = first.call("GET", "/api/v1/namespaces/default/configmaps/saved")["metadata"]["resourceVersion"]
    state = tmp_path / "state.json"
    wait_until(lambda: state.exists() and f'"resourceVersion":"{saved_rv}"' in state.read_text(), "a periodic save")
    first.process.send_signal(signal.SIGKILL)
    first.process.wait()
    first.stop()  # its PKI player too: it would outlive the test and play against the next server on this port
    second = restartable(tmp_path, port)
    try:
        assert second.call("GET", "/api/v1/namespaces/default/configmaps/saved")["data"] == {"k": "saved"}
    finally:
        assert second.stop() == 0


def test_without_a_state_file_a_restart_starts_empty(tmp_path: Path) -> None:
    port = free_port()
    args = ("--port", str(port))
    first = start_devcluster(tmp_path, extra_args=args)
    try:
        first.call("POST", "/api/v1/namespaces/default/configmaps", config_map("lost"))
    finally:
        first.stop()
    second = start_devcluster(tmp_path, extra_args=args)
    try:
        with pytest.raises(DevClusterError, match="404"):
            second.call("GET", "/api/v1/namespaces/default/configmaps/lost")
    finally:
        second.stop()
