"""Assembling and running a devcluster: state, controllers, HTTP server and the kubeconfig."""

from __future__ import annotations

import json
import signal
import threading
from pathlib import Path
from typing import Any

import yaml

from devcluster import presets
from devcluster.admission import AdmissionConfig
from devcluster.cluster import CRD_KEY, DEFAULT_NAMESPACES, Cluster
from devcluster.controllers import StatusController
from devcluster.faults import FaultInjector, rule_from_json
from devcluster.http_api import ApiServer
from devcluster.paging import DEFAULT_CONTINUE_WINDOW_SECONDS, RetainedSnapshots
from devcluster.persistence import StateWriter, read_state, write_atomically
from devcluster.registry import Registry
from devcluster.runtime import ProcessRuntime, RuntimeConfig
from devcluster.runtime.proxy import ServiceProxy
from devcluster.store import Store
from devcluster.watching import IDLE_BOOKMARK_SECONDS

TOKEN = "devcluster-token"
CONTEXT = "devcluster"


def build_cluster(
    flavour: str,
    extra_presets: list[str] = (),
    continue_window: float = DEFAULT_CONTINUE_WINDOW_SECONDS,
    state: dict[str, Any] | None = None,
    pod_security_default: str = "privileged",
) -> Cluster:
    """A fresh cluster with the default namespaces and the flavour's (and extra presets') CRDs installed, or
    the cluster a saved `state` holds (its CRDs served, no preset added); continue tokens expire
    `continue_window` seconds after their list's first chunk. Pods in namespaces without a
    `pod-security.kubernetes.io/enforce` label are held to `pod_security_default`."""
    admission = AdmissionConfig(flavour, pod_security_default)
    if state is not None:
        cluster = Cluster(Store.restore(state), Registry(), RetainedSnapshots(continue_window), admission)
        cluster.registry.rebuild(cluster.store.list(CRD_KEY))
        return cluster
    cluster = Cluster(Store(), Registry(), RetainedSnapshots(continue_window), admission)
    for name in DEFAULT_NAMESPACES:
        cluster.ensure_namespace(name)
    for manifest in presets.manifests(flavour, extra_presets):
        api_version = manifest.get("apiVersion", "")
        group, _, version = api_version.rpartition("/")
        rt = cluster.registry.lookup_kind(group, version, manifest.get("kind", ""))
        if rt is None:
            raise ValueError(f"preset manifest of unsupported kind {api_version} {manifest['kind']}")
        cluster.create(rt, manifest.get("metadata", {}).get("namespace", ""), manifest)
    return cluster


def load_faults(path: Path, injector: FaultInjector) -> None:
    """Rules from a YAML or JSON file holding a list of rules (or `{faults: [...]}`)."""
    data: Any = yaml.safe_load(path.read_text()) or []
    rules = data.get("faults", []) if isinstance(data, dict) else data
    for rule in rules:
        injector.add(rule_from_json(rule))


def kubeconfig(url: str) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": CONTEXT, "cluster": {"server": url}}],
        "users": [{"name": CONTEXT, "user": {"token": TOKEN}}],
        "contexts": [{"name": CONTEXT, "context": {"cluster": CONTEXT, "user": CONTEXT, "namespace": "default"}}],
        "current-context": CONTEXT,
        "preferences": {},
    }


def serve(
    kubeconfig_path: Path,
    port: int = 0,
    flavour: str = "kubernetes",
    ready_delay: float = 0.5,
    faults_file: Path | None = None,
    verbose: bool = False,
    extra_presets: list[str] = (),
    continue_window: float = DEFAULT_CONTINUE_WINDOW_SECONDS,
    bookmark_interval: float = IDLE_BOOKMARK_SECONDS,
    state_file: Path | None = None,
    state_interval: float = 1.0,
    pod_security_default: str = "privileged",
    runtime_config: RuntimeConfig | None = None,
) -> None:
    """Run until SIGTERM or SIGINT; the kubeconfig appears only once requests can be served. With a
    `state_file` the objects are loaded from it and saved to it (see `devcluster.persistence`). With a
    `runtime_config` the pods of that image run as processes (`devcluster.runtime`), and a kube-proxy stand-in
    serves NodePort Services on loopback; stopping kills every pod process."""
    cluster = build_cluster(
        flavour, extra_presets, continue_window, read_state(state_file) if state_file else None, pod_security_default
    )
    state_writer = StateWriter(cluster.store, state_file, state_interval) if state_file else None
    injector = FaultInjector()
    if faults_file is not None:
        load_faults(faults_file, injector)
    runtime = ProcessRuntime(runtime_config) if runtime_config is not None else None
    proxy = ServiceProxy(cluster.store.list, runtime.endpoint) if runtime is not None else None
    if runtime is not None:
        cluster.graceful_pod = lambda pod: runtime.handles(pod) and runtime.running(pod["metadata"]["uid"])
    httpd = ApiServer(("127.0.0.1", port), cluster, injector, verbose, bookmark_interval, runtime, proxy)
    controller = StatusController(cluster, ready_delay, runtime=runtime)
    controller.start()
    if proxy is not None:
        proxy.start()
    if state_writer is not None:
        state_writer.start()

    def request_stop(signum: int, frame: Any) -> None:
        httpd.stopping.set()
        cluster.store.close()
        threading.Thread(target=httpd.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, request_stop)
    signal.signal(signal.SIGINT, request_stop)
    url = f"http://{httpd.address}"
    write_atomically(kubeconfig_path, yaml.safe_dump(kubeconfig(url), sort_keys=False))
    print(json.dumps({"event": "ready", "url": url, "kubeconfig": str(kubeconfig_path)}), flush=True)
    try:
        httpd.serve_forever(poll_interval=0.1)
    finally:
        if proxy is not None:
            proxy.stop()
        controller.stop()
        httpd.server_close()
        if state_writer is not None:
            state_writer.close()
