"""How traffic reaches process-run pods: a Service's endpoints (its selected pods that are Ready and not
terminating, as the EndpointSlice controller publishes them), a kube-proxy stand-in that listens on
127.0.0.1:<nodePort> for NodePort and LoadBalancer Services and forwards each TCP connection to the next
endpoint (round robin), and the API server's `.../pods|services/NAME[:PORT]/proxy/PATH` forwarding."""

from __future__ import annotations

import contextlib
import http.client
import itertools
import select
import socket
import socketserver
import sys
import threading
from collections.abc import Callable
from typing import Any

from devcluster.selectors import label_matcher

__all__ = ["ServiceProxy", "endpoints", "forward_http", "service_port"]

SERVICES_KEY = ("", "services")
PODS_KEY = ("", "pods")
HOP_BY_HOP = {
    "connection",
    "keep-alive",
    "proxy-connection",
    "transfer-encoding",
    "upgrade",
    "te",
    "trailer",
    "host",
    "content-length",
    "authorization",
}
Endpoint = Callable[[str, int | str], int | None]  # pod uid, target port -> loopback port


def _ready(pod: dict[str, Any]) -> bool:
    if pod["metadata"].get("deletionTimestamp"):
        return False
    conditions = (pod.get("status") or {}).get("conditions") or []
    return any(c.get("type") == "Ready" and c.get("status") == "True" for c in conditions)


def service_port(service: dict[str, Any], port: str) -> dict[str, Any] | None:
    """The Service port named `port`, or numbered so, or the only one when `port` is empty."""
    ports = (service.get("spec") or {}).get("ports") or []
    if not port:
        return ports[0] if len(ports) == 1 else None
    return next((p for p in ports if p.get("name") == port or str(p.get("port")) == port), None)


def endpoints(pods: list[dict[str, Any]], service: dict[str, Any], target: int | str, endpoint: Endpoint) -> list[int]:
    """Loopback ports of the Service's Ready, non-terminating pods that serve `target` (ordered by pod name)."""
    selector = (service.get("spec") or {}).get("selector") or {}
    if not selector:
        return []
    matches = label_matcher(",".join(f"{k}={v}" for k, v in selector.items()))
    ports = []
    for pod in sorted(pods, key=lambda p: p["metadata"]["name"]):
        if matches(pod) and _ready(pod) and (port := endpoint(pod["metadata"]["uid"], target)) is not None:
            ports.append(port)
    return ports


def forward_http(
    port: int, method: str, path: str, headers: dict[str, str], body: bytes
) -> tuple[int, list[tuple[str, str]], bytes]:
    """One request to 127.0.0.1:port as the API server's proxy sends it (its own credentials not passed on)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        sent = {k: v for k, v in headers.items() if k.lower() not in HOP_BY_HOP}
        sent["Host"] = f"127.0.0.1:{port}"
        conn.request(method, path, body=body or None, headers=sent)
        response = conn.getresponse()
        data = response.read()
        kept = [(k, v) for k, v in response.getheaders() if k.lower() not in HOP_BY_HOP]
        return response.status, kept, data
    finally:
        conn.close()


def _splice(client: socket.socket, upstream: socket.socket) -> None:
    sockets = [client, upstream]
    while True:
        readable, _, _ = select.select(sockets, [], [], 300)
        if not readable:
            return
        for sock in readable:
            data = sock.recv(65536)
            if not data:
                return
            (upstream if sock is client else client).sendall(data)


class _Listener(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, port: int, choose: Callable[[], int | None]) -> None:
        self.choose = choose
        super().__init__(("127.0.0.1", port), _Connection)


class _Connection(socketserver.BaseRequestHandler):
    server: _Listener

    def handle(self) -> None:
        port = self.server.choose()
        if port is None:
            return  # no endpoint: the connection is closed, as kube-proxy rejects it
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=10) as upstream:
            upstream.settimeout(None)
            _splice(self.request, upstream)


class ServiceProxy:
    """Keeps a loopback listener on each NodePort/LoadBalancer Service port's nodePort."""

    def __init__(
        self,
        lookup_all: Callable[[tuple[str, str], str | None], list[dict[str, Any]]],
        endpoint: Endpoint,
        interval: float = 0.2,
    ) -> None:
        self._list = lookup_all
        self._endpoint = endpoint
        self._interval = interval
        self._listeners: dict[tuple[str, str, int], _Listener] = {}
        self._counters: dict[Any, itertools.count[int]] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="devcluster-kube-proxy", daemon=True)
        self._failed: set[tuple[str, str, int]] = set()

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        for listener in self._listeners.values():
            listener.shutdown()
            listener.server_close()

    def pick(self, namespace: str, service: dict[str, Any], target: int | str, key: Any) -> int | None:
        """The next endpoint of the Service, round robin."""
        ports = endpoints(self._list(PODS_KEY, namespace), service, target, self._endpoint)
        if not ports:
            return None
        return ports[next(self._counters.setdefault(key, itertools.count())) % len(ports)]

    def _run(self) -> None:
        while not self._stop.is_set():
            self._sync()
            self._stop.wait(self._interval)

    def _sync(self) -> None:
        wanted: dict[tuple[str, str, int], dict[str, Any]] = {}
        for service in self._list(SERVICES_KEY, None):
            spec = service.get("spec") or {}
            if spec.get("type") not in ("NodePort", "LoadBalancer"):
                continue
            for port in spec.get("ports") or []:
                if port.get("nodePort"):
                    meta = service["metadata"]
                    wanted[(meta["namespace"], meta["name"], int(port["nodePort"]))] = port
        for key in [key for key in self._listeners if key not in wanted]:
            listener = self._listeners.pop(key)
            listener.shutdown()
            listener.server_close()
        for key, port in wanted.items():
            if key in self._listeners or key in self._failed:
                continue
            namespace, name, node_port = key
            target = port.get("targetPort", port.get("port"))

            def choose(
                namespace: str = namespace, name: str = name, target: Any = target, key: Any = key
            ) -> int | None:
                found = [s for s in self._list(SERVICES_KEY, namespace) if s["metadata"]["name"] == name]
                return self.pick(namespace, found[0], target, key) if found else None

            try:
                listener = _Listener(node_port, choose)
            except OSError as exc:
                self._failed.add(key)
                where = f"nodePort {node_port} of service {namespace}/{name}"
                sys.stderr.write(f"devcluster: cannot serve {where}: {exc}\n")
                continue
            threading.Thread(target=listener.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True).start()
            self._listeners[key] = listener
