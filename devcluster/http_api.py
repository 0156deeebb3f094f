"""The HTTP front end: routing of Kubernetes API paths, content negotiation, watches and admin endpoints."""

from __future__ import annotations

import json
import select
import socket
import sys
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import yaml

from devcluster import discovery, errors, k8s_protobuf, openapi
from devcluster.admission import ADMIN, Requester
from devcluster.admission.requester import SERVICE_ACCOUNT_PREFIX
from devcluster.cluster import APPLY_PATCH, Cluster
from devcluster.errors import ApiError
from devcluster.faults import FaultInjector, InFlight, RequestLog, rule_from_json
from devcluster.meta import partial_metadata, partial_metadata_kind
from devcluster.resources import ResourceType
from devcluster.runtime import ProcessRuntime
from devcluster.runtime.proxy import ServiceProxy, forward_http, service_port
from devcluster.watching import IDLE_BOOKMARK_SECONDS, WatchRequest, open_watch

ADMIN_PREFIX = "/_devcluster/"
WATCHED_CHANGES = ("ADDED", "MODIFIED", "DELETED")
KUBE_VERSION = {"major": "1", "minor": "37", "patch": "1"}
_REASONS = {
    400: "BadRequest",
    401: "Unauthorized",
    403: "Forbidden",
    404: "NotFound",
    405: "MethodNotAllowed",
    409: "Conflict",
    410: "Expired",
    422: "Invalid",
    429: "TooManyRequests",
    500: "InternalError",
    503: "ServiceUnavailable",
    504: "Timeout",
}


def version_info() -> dict[str, str]:
    git_version = f"v{KUBE_VERSION['major']}.{KUBE_VERSION['minor']}.{KUBE_VERSION['patch']}"
    return {
        "major": KUBE_VERSION["major"],
        "minor": KUBE_VERSION["minor"],
        "emulationMajor": KUBE_VERSION["major"],
        "emulationMinor": KUBE_VERSION["minor"],
        "minCompatibilityMajor": KUBE_VERSION["major"],
        "minCompatibilityMinor": str(int(KUBE_VERSION["minor"]) - 1),
        "gitVersion": git_version,
        "gitCommit": "0000000000000000000000000000000000000000",
        "gitTreeState": "clean",
        "buildDate": "2026-01-01T00:00:00Z",
        "goVersion": "go1.25.0",
        "compiler": "gc",
        "platform": "linux/amd64",
    }


class ApiServer(ThreadingHTTPServer):
    """A threading HTTP server that carries the simulated cluster and the admin state."""

    daemon_threads = True

    def __init__(
        self,
        address: tuple[str, int],
        cluster: Cluster,
        faults: FaultInjector,
        verbose: bool = False,
        bookmark_interval: float = IDLE_BOOKMARK_SECONDS,
        runtime: ProcessRuntime | None = None,
        proxy: ServiceProxy | None = None,
    ) -> None:
        super().__init__(address, ApiHandler)
        self.runtime = runtime
        self.proxy = proxy
        self.cluster = cluster
        self.faults = faults
        self.requests_log = RequestLog()
        self.in_flight = InFlight()
        self.verbose = verbose
        self.bookmark_interval = bookmark_interval
        self.stopping = threading.Event()

    @property
    def address(self) -> str:
        host, port = self.server_address[:2]
        return f"{host}:{port}"


@dataclass(frozen=True)
class ResourceRequest:
    rt: ResourceType
    namespace: str
    name: str
    subresource: str
    watch: bool


class ApiHandler(BaseHTTPRequestHandler):
    """One request; JSON in and out (protobuf Secret/ConfigMap bodies are decoded)."""

    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes; without TCP_NODELAY each keep-alive response waits for
    # the client's delayed ACK (~40 ms).
    disable_nagle_algorithm = True
    server: ApiServer
    delayed_ms = 0  # the injected latency the current request was held for (a keep-alive handler serves many)

    def do_GET(self) -> None:
        self._handle()

    def do_POST(self) -> None:
        self._handle()

    def do_PUT(self) -> None:
        self._handle()

    def do_PATCH(self) -> None:
        self._handle()

    def do_DELETE(self) -> None:
        self._handle()

    def log_message(self, format: str, *args: Any) -> None:
        if self.server.verbose:
            sys.stderr.write(f"devcluster: {self.headers.get('Accept', '')} {format % args}\n")

    # -- plumbing --------------------------------------------------------------------------------

    def _handle(self) -> None:
        url = urlsplit(self.path)
        self.url_path = url.path.rstrip("/") or "/"
        self.delayed_ms = 0
        self.query = {key: values[-1] for key, values in parse_qs(url.query, keep_blank_values=True).items()}
        self.content_type = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        try:
            self.body = self._read_body()
            if self.url_path.startswith(ADMIN_PREFIX):
                self._admin()
                return
            with self.server.in_flight.serving(self.headers.get("User-Agent", "")):
                self._inject_faults()
                self._route()
        except ApiError as exc:
            self._send_json(exc.code, exc.status())
        except Exception as exc:
            self._send_json(500, ApiError(500, "InternalError", f"devcluster internal error: {exc!r}").status())

    def _read_body(self) -> bytes:
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _start_response(self, code: int) -> None:
        """Send the status line, logging the request as soon as it is answered (watches run on)."""
        if not self.url_path.startswith(ADMIN_PREFIX):
            self.server.requests_log.record(
                self.command,
                self.url_path,
                urlsplit(self.path).query,
                self.content_type,
                self.headers.get("Accept", ""),
                code,
                self.headers.get("User-Agent", ""),
                self.delayed_ms,
            )
        self.send_response(code)

    def _client_gone(self) -> bool:
        """Whether the peer closed the connection (checked while a watch is idle)."""
        readable, _, _ = select.select([self.connection], [], [], 0)
        if not readable:
            return False
        try:
            return self.connection.recv(1, socket.MSG_PEEK) == b""
        except OSError:
            return True

    def _send_json(self, code: int, payload: Any) -> None:
        data = json.dumps(payload, separators=(",", ":")).encode()
        self._start_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _decoded_body(self) -> Any:
        if not self.body:
            return None
        if self.content_type == k8s_protobuf.PROTOBUF_CONTENT_TYPE:
            return k8s_protobuf.decode(self.body)
        try:
            if self.content_type in (APPLY_PATCH, "application/yaml"):
                return yaml.safe_load(self.body)
            return json.loads(self.body)
        except (ValueError, yaml.YAMLError) as exc:
            raise errors.bad_request(f"could not decode the request body: {exc}") from None

    def _inject_faults(self) -> None:
        decision = self.server.faults.decide(self.command, self.url_path)
        if decision is None:
            return
        if decision.latency_seconds:
            time.sleep(decision.latency_seconds)
            self.delayed_ms = round(decision.latency_seconds * 1000)
        if decision.status:
            reason = _REASONS.get(decision.status, "InternalError")
            raise ApiError(decision.status, reason, f"devcluster injected fault: {decision.status} {reason}")

    # -- routing ---------------------------------------------------------------------------------

    def _route(self) -> None:
        registry = self.server.cluster.registry
        path = self.url_path
        parts = [part for part in path.split("/") if part]
        if self.command != "GET" and (not parts or parts[0] not in ("api", "apis")):
            raise errors.method_not_allowed(self.command)
        static = {
            "/version": version_info,
            "/healthz": lambda: "ok",
            "/livez": lambda: "ok",
            "/readyz": lambda: "ok",
            "/api": lambda: discovery.api_versions(self.server.address),
            "/apis": lambda: discovery.api_group_list(registry),
            "/openapi/v3": lambda: openapi.root_document(registry),
        }
        if path in static:
            self._send_json(200, static[path]())
            return
        if path.startswith("/openapi/v3/"):
            group, version = _group_version(parts[2:])
            document = openapi.group_version_document(registry, group, version) if version else None
            if document is None:
                raise errors.page_not_found(path)
            self._send_json(200, document)
            return
        if parts[0] == "apis" and len(parts) == 2 and self.command == "GET":
            group_doc = discovery.api_group(registry, parts[1])
            if group_doc is None:
                raise errors.page_not_found(path)
            self._send_json(200, group_doc)
            return
        if (parts[0] == "api" and len(parts) == 2) or (parts[0] == "apis" and len(parts) == 3):
            group, version = _group_version(parts)
            resources = discovery.api_resource_list(registry, group, version) if self.command == "GET" else None
            if resources is None:
                raise errors.page_not_found(path)
            self._send_json(200, resources)
            return
        if _proxied(parts):
            self._pod_or_service(parts)
            return
        if parts[0] in ("api", "apis"):
            self._serve_resource(self._resource_request(parts))
            return
        raise errors.page_not_found(path)

    # -- what reaches process-run pods: proxy and logs (devcluster.runtime) ------------------------------

    def _pod_or_service(self, parts: list[str]) -> None:
        runtime, proxy = self.server.runtime, self.server.proxy
        namespace, kind = parts[3], parts[4]
        scheme_name_port = parts[5].split(":")
        name = scheme_name_port[1] if len(scheme_name_port) == 3 else scheme_name_port[0]
        port = scheme_name_port[-1] if len(scheme_name_port) > 1 else ""
        key = ("", kind)
        obj = self.server.cluster.store.peek(key, namespace, name)
        if obj is None:
            raise errors.not_found("", kind, name)
        if runtime is None or proxy is None:
            raise ApiError(503, "ServiceUnavailable", "no process runtime: nothing runs behind this object")
        if parts[6] == "log":
            containers = (obj.get("spec") or {}).get("containers") or [{}]
            container = self.query.get("container") or containers[0].get("name", "")
            log = runtime.log_path(obj, container)
            if not log.exists():
                raise errors.bad_request(f'container "{container}" in pod "{name}" is waiting to start')
            self._send_raw(200, [("Content-Type", "text/plain")], log.read_bytes())
            return
        if kind == "pods":
            declared = [p for c in (obj.get("spec") or {}).get("containers") or [] for p in c.get("ports") or []]
            default = declared[0]["containerPort"] if declared else 80
            target: int | str = int(port) if port.isdigit() else port or default
            local = runtime.endpoint(obj["metadata"]["uid"], target)
        else:
            service_port_ = service_port(obj, port)
            if service_port_ is None:
                raise errors.not_found("", kind, name)
            target = service_port_.get("targetPort", service_port_.get("port"))
            local = proxy.pick(namespace, obj, target, (namespace, name, str(target)))
        if local is None:
            raise ApiError(503, "ServiceUnavailable", f'no endpoints available for {kind[:-1]} "{name}"')
        url = urlsplit(self.path)
        rest = "/" + "/".join(parts[7:]) + ("/" if url.path.endswith("/") and len(parts) > 7 else "")
        query = url.query
        try:
            status, headers, body = forward_http(
                local, self.command, rest + (f"?{query}" if query else ""), dict(self.headers.items()), self.body
            )
        except OSError as exc:
            raise ApiError(503, "ServiceUnavailable", f"error trying to reach {kind[:-1]}: {exc}") from None
        self._send_raw(status, headers, body)

    def _send_raw(self, code: int, headers: list[tuple[str, str]], body: bytes) -> None:
        self._start_response(code)
        for header, value in headers:
            self.send_header(header, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _resource_request(self, parts: list[str]) -> ResourceRequest:
        group, version = _group_version(parts)
        rest = parts[2:] if parts[0] == "api" else parts[3:]
        watch = bool(rest) and rest[0] == "watch"
        rest = rest[1:] if watch else rest
        registry = self.server.cluster.registry
        namespace = ""
        if len(rest) >= 3 and rest[0] == "namespaces":
            candidate = registry.lookup(group, version, rest[2])
            if candidate is not None and candidate.namespaced:
                namespace, rest = rest[1], rest[2:]
        rt = registry.lookup(group, version, rest[0]) if rest else None
        if rt is None or len(rest) > 3 or (len(rest) == 3 and rest[2] != "status"):
            raise errors.page_not_found(self.url_path)
        name = rest[1] if len(rest) > 1 else ""
        return ResourceRequest(rt, namespace, name, rest[2] if len(rest) == 3 else "", watch)

    def _serve_resource(self, request: ResourceRequest) -> None:
        cluster, rt, q = self.server.cluster, request.rt, self.query
        dry_run = q.get("dryRun") == "All"
        namespace, name = request.namespace, request.name
        if rt.namespaced and not namespace and (name or self.command not in ("GET",)):
            raise errors.page_not_found(self.url_path)
        metadata_only = partial_metadata_kind(self.headers.get("Accept", ""))
        if self.command == "GET" and not name:
            if request.watch or q.get("watch") in ("1", "true", "True"):
                self._stream_watch(rt, namespace, metadata_only is not None)
            elif metadata_only == "PartialObjectMetadataList":
                self._send_json(200, partial_metadata(self._list(rt, namespace), metadata_only))
            else:
                self._send_json(200, self._list(rt, namespace))
        elif self.command == "GET" and metadata_only == "PartialObjectMetadata":
            self._send_json(200, partial_metadata(cluster.get(rt, namespace, name)))
        elif self.command == "GET":
            self._send_json(200, cluster.get(rt, namespace, name))
        elif self.command == "POST" and not name:
            self._send_json(201, cluster.create(rt, namespace, self._decoded_body(), dry_run, self._requester()))
        elif self.command == "PUT" and name:
            self._send_json(
                200, cluster.replace(rt, namespace, name, self._decoded_body(), request.subresource, dry_run)
            )
        elif self.command == "PATCH" and name:
            obj, created = cluster.patch(
                rt,
                namespace,
                name,
                self.content_type,
                self._decoded_body(),
                request.subresource,
                q.get("fieldManager", ""),
                dry_run,
            )
            self._send_json(201 if created else 200, obj)
        elif self.command == "DELETE":
            options = self._decoded_body() or {}
            if not isinstance(options, dict):
                raise errors.bad_request("DeleteOptions must be an object")
            for key in ("propagationPolicy", "gracePeriodSeconds"):
                if key in q:
                    options[key] = q[key]
            if dry_run:
                options["dryRun"] = ["All"]
            if name:
                self._send_json(200, cluster.delete(rt, namespace, name, options))
            else:
                self._send_json(
                    200,
                    cluster.delete_collection(
                        rt, namespace, q.get("labelSelector", ""), q.get("fieldSelector", ""), options
                    ),
                )
        else:
            raise errors.method_not_allowed(self.command)

    def _requester(self) -> Requester:
        """The kubeconfig's admin, or whom it impersonates (`kubectl --as USER --as-group GROUP`), with the
        groups the impersonation filter adds (k8s.io/apiserver endpoints/filters/impersonation.go)."""
        user = self.headers.get("Impersonate-User")
        groups = list(self.headers.get_all("Impersonate-Group") or [])
        if not user:
            if groups:
                raise errors.bad_request(f"requested {groups} without impersonating a user")
            return ADMIN
        if user.startswith(SERVICE_ACCOUNT_PREFIX) and user.count(":") == 3:
            namespace = user.split(":")[2]
            groups = ["system:serviceaccounts", f"system:serviceaccounts:{namespace}", *groups]
        if user != "system:anonymous" and not {"system:authenticated", "system:unauthenticated"} & set(groups):
            groups.append("system:authenticated")
        return Requester(user, tuple(dict.fromkeys(groups)))

    def _list(self, rt: ResourceType, namespace: str) -> dict[str, Any]:
        """A list request: `limit` and `continue` chunk it, selectors filter before chunking."""
        q = self.query
        limit_text, token = q.get("limit", ""), q.get("continue", "")
        if limit_text and not limit_text.lstrip("-").isdigit():
            raise errors.bad_request(f"invalid limit {limit_text!r}: must be an integer")
        if token and q.get("resourceVersion", "") not in ("", "0"):
            raise errors.bad_request("specifying resource version is not allowed when using continue")
        limit = max(int(limit_text or 0), 0)
        return self.server.cluster.list(
            rt, namespace, q.get("labelSelector", ""), q.get("fieldSelector", ""), limit, token
        )

    def _stream_watch(self, rt: ResourceType, namespace: str, metadata_only: bool = False) -> None:
        """A watch; with ``metadata_only`` each changed object is sent as PartialObjectMetadata."""
        q = self.query
        timeout = float(q["timeoutSeconds"]) if q.get("timeoutSeconds") else None
        request = WatchRequest(
            namespace=namespace or None,
            resource_version=q.get("resourceVersion", ""),
            label_selector=q.get("labelSelector", ""),
            field_selector=q.get("fieldSelector", ""),
            send_initial_events=q.get("sendInitialEvents") in ("1", "true", "True"),
            allow_bookmarks=q.get("allowWatchBookmarks") in ("1", "true", "True"),
            timeout_seconds=timeout,
        )
        events = open_watch(
            self.server.cluster,
            rt,
            request,
            lambda: self.server.stopping.is_set() or self._client_gone(),
            self.server.bookmark_interval,
        )
        self._start_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.wfile.flush()
        try:
            for event in events:
                if metadata_only and event.get("type") in WATCHED_CHANGES:
                    event = {**event, "object": partial_metadata(event["object"])}
                self._write_chunk(event)
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        finally:
            events.close()

    def _write_chunk(self, event: dict[str, Any]) -> None:
        data = json.dumps(event, separators=(",", ":")).encode() + b"\n"
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    # -- admin -----------------------------------------------------------------------------------

    def _admin(self) -> None:
        faults, log = self.server.faults, self.server.requests_log
        path, method = self.url_path, self.command
        if path == "/_devcluster/faults" and method == "GET":
            self._send_json(200, {"faults": faults.describe()})
        elif path == "/_devcluster/faults" and method == "POST":
            try:
                rule = faults.add(rule_from_json(json.loads(self.body or b"null")))
            except (ValueError, TypeError) as exc:
                raise errors.bad_request(f"invalid fault rule: {exc}") from None
            self._send_json(201, rule.describe())
        elif path == "/_devcluster/faults" and method == "DELETE":
            faults.clear()
            self._send_json(200, {"faults": []})
        elif path.startswith("/_devcluster/faults/") and method == "DELETE":
            rule_id = path.rsplit("/", 1)[1]
            if not rule_id.isdigit() or not faults.remove(int(rule_id)):
                raise errors.page_not_found(path)
            self._send_json(200, {"deleted": int(rule_id)})
        elif path == "/_devcluster/requests" and method == "GET":
            self._send_json(200, {"requests": log.entries()})
        elif path == "/_devcluster/requests" and method == "DELETE":
            log.clear()
            self._send_json(200, {"requests": []})
        elif path == "/_devcluster/inflight" and method == "GET":
            self._send_json(200, self.server.in_flight.describe())
        elif path == "/_devcluster/inflight" and method == "DELETE":
            self.server.in_flight.reset()
            self._send_json(200, self.server.in_flight.describe())
        elif path == "/_devcluster/compact" and method == "POST":
            self._send_json(200, {"expiredSnapshots": self.server.cluster.retained.compact()})
        else:
            raise errors.page_not_found(path)


def _proxied(parts: list[str]) -> bool:
    """`/api/v1/namespaces/NS/pods|services/NAME[:PORT]/proxy[/PATH]` or `/api/v1/namespaces/NS/pods/NAME/log`."""
    if len(parts) < 7 or parts[:3] != ["api", "v1", "namespaces"]:
        return False
    return (parts[4] in ("pods", "services") and parts[6] == "proxy") or (parts[4] == "pods" and parts[6:] == ["log"])


def _group_version(parts: list[str]) -> tuple[str, str]:
    """(group, version) from path parts starting at `api` or `apis`."""
    if parts and parts[0] == "api":
        return "", parts[1] if len(parts) > 1 else ""
    if parts and parts[0] == "apis" and len(parts) >= 3:
        return parts[1], parts[2]
    return "", ""
