"""Kubernetes API access for one cluster, built from kubeconfig content.

The only module that imports `kubernetes`. Each `KubeClient` owns its own `ApiClient`
(never the global configuration), sends every request with a timeout and no retries,
and turns every failure into an `errors.DriverError` subclass.
"""

from __future__ import annotations

import base64
import contextlib
import json
import logging
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import orjson
import urllib3
import yaml
from kubernetes.client import ApiClient, Configuration
from kubernetes.client.exceptions import ApiException
from kubernetes.config import new_client_from_config_dict
from kubernetes.config.config_exception import ConfigException

from cluster_vocabulary.kubernetes import ConditionStatus, NamespacePhase
from workers.drivers import errors
from workers.drivers.kubeconfig import kubeconfig_secrets
from workers.drivers.request_budget import UNBOUNDED, RequestBudget

logger = logging.getLogger(__name__)

# kind -> (apiVersion, plural) for the kinds `delete` accepts.
KINDS: dict[str, tuple[str, str]] = {
    "Namespace": ("v1", "namespaces"),
    "Secret": ("v1", "secrets"),
    "ConfigMap": ("v1", "configmaps"),
    "ServiceAccount": ("v1", "serviceaccounts"),
    "Service": ("v1", "services"),
    "Deployment": ("apps/v1", "deployments"),
    "Role": ("rbac.authorization.k8s.io/v1", "roles"),
    "RoleBinding": ("rbac.authorization.k8s.io/v1", "rolebindings"),
}
_STATUS_ERRORS: dict[int, type[errors.DriverError]] = {
    400: errors.InvalidRequest,
    401: errors.Unauthorized,
    403: errors.Unauthorized,
    404: errors.NotFound,
    409: errors.Conflict,
    422: errors.InvalidRequest,
}
MERGE_PATCH = "application/merge-patch+json"
LIST_PAGE_SIZE = 500
# Metadata only, falling back to whole objects where a server cannot reduce them.
METADATA_LIST_ACCEPT = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json"
METADATA_WATCH_ACCEPT = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json"


@dataclass(frozen=True)
class SecretData:
    """A Secret's data, decoded as UTF-8 text, and the resourceVersion it was read at."""

    data: dict[str, str]
    resource_version: str


@dataclass(frozen=True)
class DeploymentStatus:
    """Rollout state of a Deployment; `conditions` maps condition type to "True"/"False"."""

    name: str
    namespace: str
    generation: int
    observed_generation: int
    replicas: int
    ready_replicas: int
    updated_replicas: int
    available_replicas: int
    conditions: dict[str, str]

    @property
    def ready(self) -> bool:
        """The latest spec is observed and every desired replica is updated and available."""
        return (
            self.observed_generation >= self.generation
            and self.updated_replicas >= self.replicas
            and self.available_replicas >= self.replicas
            and self.ready_replicas >= self.replicas
        )


def api_path(api_version: str, plural: str, namespace: str | None = None, name: str | None = None) -> str:
    """REST path of a collection or object, for the core ("v1") or a named API group."""
    parts = ["/api/v1" if api_version == "v1" else f"/apis/{api_version}"]
    if namespace:
        parts += ["namespaces", quote(namespace, safe="")]
    parts.append(plural)
    if name:
        parts.append(quote(name, safe=""))
    return "/".join(parts)


def api_error(exc: ApiException, secrets: set[str]) -> errors.DriverError:
    """Map an `ApiException` to a typed error carrying the API's (sanitised) message."""
    status = exc.status or 0
    message = exc.reason or "unknown error"
    try:
        body = json.loads(exc.body or "")
    except (TypeError, ValueError):
        body = None
    if isinstance(body, dict) and body.get("message"):
        message = str(body["message"])
    if status == 0:
        return errors.ClusterUnreachable(errors.sanitise(f"cluster unreachable: {message}", secrets))
    exc_type = _STATUS_ERRORS.get(status, errors.ServerError)
    return exc_type(errors.sanitise(f"HTTP {status}: {message}", secrets), status=status)


def _load_client(kubeconfig: str, secrets: set[str]) -> ApiClient:
    try:
        config_dict = yaml.safe_load(kubeconfig)
    except yaml.YAMLError:
        raise errors.InvalidRequest("invalid kubeconfig: not valid YAML") from None
    if not isinstance(config_dict, dict):
        raise errors.InvalidRequest("invalid kubeconfig: not a mapping")
    configuration = Configuration()
    configuration.retries = 0  # fail fast: the caller decides when to try again
    try:
        return new_client_from_config_dict(config_dict, persist_config=False, client_configuration=configuration)
    except (ConfigException, KeyError, TypeError, ValueError, AttributeError) as exc:
        raise errors.InvalidRequest(errors.sanitise(f"invalid kubeconfig: {exc}", secrets)) from None


class KubeClient:
    """Typed operations on one cluster. Use as a context manager, or call `close()`.

    Every request but a watch stream holds a slot of `budget` for its API server while it runs."""

    def __init__(
        self,
        kubeconfig: str,
        *,
        timeout: float = 10.0,
        connect_timeout: float = 3.0,
        budget: RequestBudget = UNBOUNDED,
    ) -> None:
        self._secrets = kubeconfig_secrets(kubeconfig)
        self._timeout = (connect_timeout, timeout)
        self._api = _load_client(kubeconfig, self._secrets)
        self._budget = budget
        self._server = str(self._api.configuration.host)

    def __enter__(self) -> KubeClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Release the connection pool."""
        self._api.close()

    def version(self) -> dict[str, Any]:
        """GET /version: gitVersion, platform, major, minor, ..."""
        return self._request("GET", "/version")

    def served_api_versions(self) -> set[str]:
        """Every served group/version ("v1", "apps/v1", "gateway.networking.k8s.io/v1", ...)."""
        served = set(self._request("GET", "/api").get("versions", []))
        for group in self._request("GET", "/apis").get("groups", []):
            served.update(version["groupVersion"] for version in group.get("versions", []))
        return served

    def served_versions(self, group: str, plural: str) -> list[str]:
        """The versions of `group` that serve the resource `plural`, in the server's order of preference."""
        found = self._get(f"/apis/{group}")
        versions = [entry["version"] for entry in (found or {}).get("versions", [])]
        serving = []
        for version in versions:
            resources = (self._get(f"/apis/{group}/{version}") or {}).get("resources", [])
            if any(resource.get("name") == plural for resource in resources):
                serving.append(version)
        return serving

    def served_resources(self, resources: Iterable[tuple[str, str]]) -> set[str]:
        """``<group>/<version>/<plural>`` for each (group, plural) of `resources` and each version serving it."""
        return {
            f"{group}/{version}/{plural}"
            for group, plural in resources
            for version in self.served_versions(group, plural)
        }

    def read_secret(self, namespace: str, name: str) -> SecretData | None:
        """A Secret's decoded data and resourceVersion, or None when it does not exist. Values are never logged."""
        secret = self._get(api_path("v1", "secrets", namespace, name))
        if secret is None:
            return None
        encoded = (secret.get("data") or {}).items()
        data = {key: base64.b64decode(value).decode(errors="replace") for key, value in encoded}
        self._secrets |= errors.secret_strings(list(data.values()))
        return SecretData(data, str(secret.get("metadata", {}).get("resourceVersion", "")))

    def apply_object(self, body: dict[str, Any], plural: str) -> None:
        """Create or replace a namespaced object of any served kind (`body` carries apiVersion and metadata)."""
        self._apply(body, plural)

    def delete_object(self, api_version: str, plural: str, namespace: str | None, name: str) -> None:
        """Delete an object of any kind (namespace None: cluster-scoped); a missing object, or an unserved kind,
        is fine."""
        with contextlib.suppress(errors.NotFound):
            self._request("DELETE", api_path(api_version, plural, namespace, name))

    def get_namespace(self, name: str) -> dict[str, Any] | None:
        """The Namespace object, or None when it does not exist."""
        return self._get(api_path("v1", "namespaces", name=name))

    def namespace_exists(self, name: str) -> bool:
        """Fails closed: any error other than 404 raises instead of answering False."""
        return self.get_namespace(name) is not None

    def ensure_namespace(self, name: str, labels: Mapping[str, str]) -> dict[str, Any]:
        """Create the namespace, or merge `labels` into an existing one.
        Raises `Conflict` when it exists but is being deleted."""
        body = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name, "labels": dict(labels)}}
        try:
            return self._request("POST", api_path("v1", "namespaces"), body=body)
        except errors.Conflict:
            pass
        namespace = self._request(
            "PATCH",
            api_path("v1", "namespaces", name=name),
            body={"metadata": {"labels": dict(labels)}},
            content_type=MERGE_PATCH,
        )
        if namespace.get("status", {}).get("phase") == NamespacePhase.TERMINATING:
            raise errors.Conflict(f"namespace {name} is being deleted", status=409)
        return namespace

    def delete_namespace(self, name: str) -> None:
        """Start deleting the namespace; a missing one is fine."""
        self.delete("Namespace", None, name)

    def apply_secret(
        self, namespace: str, name: str, string_data: Mapping[str, str], labels: Mapping[str, str]
    ) -> None:
        """Create or replace an Opaque Secret holding exactly `string_data`."""
        data = {key: base64.b64encode(value.encode()).decode() for key, value in string_data.items()}
        body = _object("v1", "Secret", namespace, name, labels) | {"type": "Opaque", "data": data}
        self._apply(body, "secrets", secrets=errors.secret_strings([*string_data.values(), *data.values()]))

    def apply_configmap(self, namespace: str, name: str, data: Mapping[str, str], labels: Mapping[str, str]) -> None:
        """Create or replace a ConfigMap holding exactly `data`."""
        self._apply(_object("v1", "ConfigMap", namespace, name, labels) | {"data": dict(data)}, "configmaps")

    def apply_rolebinding(
        self,
        namespace: str,
        name: str,
        role_ref: Mapping[str, str],
        subjects: Sequence[Mapping[str, str]],
        labels: Mapping[str, str],
    ) -> None:
        """Create or replace a RoleBinding; recreated when `role_ref` (immutable) changes."""
        api_version = "rbac.authorization.k8s.io/v1"
        body = _object(api_version, "RoleBinding", namespace, name, labels) | {
            "roleRef": dict(role_ref),
            "subjects": [dict(subject) for subject in subjects],
        }
        current = self._get(api_path(api_version, "rolebindings", namespace, name))
        if current is not None and current.get("roleRef") != body["roleRef"]:
            self.delete("RoleBinding", namespace, name)
        self._apply(body, "rolebindings")

    def delete(self, kind: str, namespace: str | None, name: str) -> None:
        """Delete an object of a kind in `KINDS` (namespace None for Namespace); 404 is fine."""
        if kind not in KINDS:
            raise ValueError(f"unsupported kind {kind!r}; known: {sorted(KINDS)}")
        api_version, plural = KINDS[kind]
        with contextlib.suppress(errors.NotFound):
            self._request(
                "DELETE",
                api_path(api_version, plural, namespace, name),
                query={"propagationPolicy": "Background"},
            )

    def get_deployment_status(self, namespace: str, name: str) -> DeploymentStatus | None:
        """Rollout state of a Deployment, or None when it does not exist."""
        deployment = self._get(api_path("apps/v1", "deployments", namespace, name))
        if deployment is None:
            return None
        status = deployment.get("status", {})
        return DeploymentStatus(
            name=name,
            namespace=namespace,
            generation=deployment["metadata"].get("generation", 0),
            observed_generation=status.get("observedGeneration", 0),
            replicas=deployment.get("spec", {}).get("replicas", 1),
            ready_replicas=status.get("readyReplicas", 0),
            updated_replicas=status.get("updatedReplicas", 0),
            available_replicas=status.get("availableReplicas", 0),
            conditions={
                cond["type"]: cond.get("status", ConditionStatus.UNKNOWN) for cond in status.get("conditions", [])
            },
        )

    def list_objects(
        self,
        api_version: str,
        plural: str,
        namespace: str | None = None,
        label_selector: str | None = None,
        field_selector: str | None = None,
    ) -> list[dict[str, Any]]:
        """All objects of a resource (every page), in one namespace or cluster-wide."""
        items: list[dict[str, Any]] = []
        for page in self._pages(api_path(api_version, plural, namespace), label_selector, field_selector):
            kind = page.get("kind", "").removesuffix("List")
            items += [{"apiVersion": api_version, "kind": kind} | item for item in page.get("items", [])]
        return items

    def list_metadata(
        self,
        api_version: str,
        plural: str,
        namespace: str | None = None,
        label_selector: str | None = None,
        field_selector: str | None = None,
    ) -> list[dict[str, Any]]:
        """Only the metadata of every object of a resource (every page): a PartialObjectMetadataList, as
        metadata-only informers ask for; a server that cannot answer one sends the whole objects instead."""
        path = api_path(api_version, plural, namespace)
        pages = self._pages(path, label_selector, field_selector, accept=METADATA_LIST_ACCEPT)
        return [{"metadata": item.get("metadata", {})} for page in pages for item in page.get("items", [])]

    def get_object(self, api_version: str, plural: str, namespace: str, name: str) -> dict[str, Any] | None:
        """One object, or None when it does not exist."""
        return self._get(api_path(api_version, plural, namespace, name))

    def list_with_version(
        self, api_version: str, plural: str, label_selector: str | None = None, *, metadata_only: bool = False
    ) -> tuple[list[dict[str, Any]], str]:
        """Every object cluster-wide (every page; only their metadata with ``metadata_only``) and the list's
        resourceVersion, to start a watch from."""
        accept = METADATA_LIST_ACCEPT if metadata_only else "application/json"
        items: list[dict[str, Any]] = []
        version = ""
        for page in self._pages(api_path(api_version, plural), label_selector, accept=accept):
            items += page.get("items", [])
            version = str(page.get("metadata", {}).get("resourceVersion", ""))
        return items, version

    def _pages(
        self,
        path: str,
        label_selector: str | None,
        field_selector: str | None = None,
        *,
        accept: str = "application/json",
    ) -> Iterator[dict[str, Any]]:
        """Each page of a list, following its continue tokens."""
        query: dict[str, str | int] = {"limit": LIST_PAGE_SIZE}
        if label_selector:
            query["labelSelector"] = label_selector
        if field_selector:
            query["fieldSelector"] = field_selector
        while True:
            page = self._request("GET", path, query=query, accept=accept)
            yield page
            token = page.get("metadata", {}).get("continue")
            if not token:
                return
            query["continue"] = token

    def watch(
        self,
        api_version: str,
        plural: str,
        resource_version: str,
        *,
        label_selector: str | None = None,
        timeout_seconds: int = 300,
        metadata_only: bool = False,
    ) -> Iterator[dict[str, Any]]:
        """Stream watch events cluster-wide from ``resource_version``, bookmarks included, until the server
        ends the watch (each object as its metadata alone with ``metadata_only``). An ERROR event (for example
        410 Gone) raises the matching typed error."""
        query: dict[str, str | int] = {
            "watch": "true",
            "resourceVersion": resource_version,
            "allowWatchBookmarks": "true",
            "timeoutSeconds": timeout_seconds,
        }
        if label_selector:
            query["labelSelector"] = label_selector
        try:
            response = self._api.call_api(
                api_path(api_version, plural),
                "GET",
                query_params=list(query.items()),
                header_params={"Accept": METADATA_WATCH_ACCEPT if metadata_only else "application/json"},
                auth_settings=["BearerToken"],
                _preload_content=False,
                _request_timeout=(self._timeout[0], timeout_seconds + self._timeout[1]),
            )
        except ApiException as exc:
            raise api_error(exc, self._secrets) from None
        except urllib3.exceptions.HTTPError as exc:
            raise errors.ClusterUnreachable(errors.sanitise(f"cluster unreachable: {exc}", self._secrets)) from None
        try:
            for line in _lines(response):
                event = orjson.loads(line)
                if event.get("type") == "ERROR":
                    status = event.get("object", {})
                    code = int(status.get("code") or 500)
                    exc_type = _STATUS_ERRORS.get(code, errors.ServerError)
                    raise exc_type(
                        errors.sanitise(f"watch: HTTP {code}: {status.get('message', '')}", self._secrets), status=code
                    )
                yield event
        except urllib3.exceptions.HTTPError as exc:
            raise errors.ClusterUnreachable(errors.sanitise(f"watch interrupted: {exc}", self._secrets)) from None
        finally:
            response.release_conn()

    def _get(self, path: str) -> dict[str, Any] | None:
        try:
            return self._request("GET", path)
        except errors.NotFound:
            return None

    def _apply(self, body: dict[str, Any], plural: str, secrets: set[str] | None = None) -> None:
        """Create, or replace wholesale when it already exists."""
        meta = body["metadata"]
        collection = api_path(body["apiVersion"], plural, meta["namespace"])
        try:
            self._request("POST", collection, body=body, secrets=secrets)
        except errors.Conflict:
            path = api_path(body["apiVersion"], plural, meta["namespace"], meta["name"])
            self._request("PUT", path, body=body, secrets=secrets)

    def _request(
        self,
        method: str,
        path: str,
        *,
        body: dict[str, Any] | None = None,
        query: Mapping[str, str | int] | None = None,
        content_type: str = "application/json",
        secrets: set[str] | None = None,
        accept: str = "application/json",
    ) -> dict[str, Any]:
        """One API call returning the decoded JSON body. Bodies are never logged."""
        logger.debug("kube %s %s", method, path)
        redact = self._secrets | (secrets or set())
        try:
            with self._budget.slot(self._server):
                response = self._api.call_api(
                    path,
                    method,
                    query_params=list((query or {}).items()),
                    header_params={"Accept": accept, "Content-Type": content_type},
                    body=body,
                    auth_settings=["BearerToken"],
                    _preload_content=False,
                    _request_timeout=self._timeout,
                )
                try:
                    data = response.data
                finally:
                    response.release_conn()
        except ApiException as exc:
            raise api_error(exc, redact) from None
        except urllib3.exceptions.HTTPError as exc:
            reason = getattr(exc, "reason", None) or exc
            raise errors.ClusterUnreachable(errors.sanitise(f"cluster unreachable: {reason}", redact)) from None
        try:
            return orjson.loads(data) if data else {}
        except ValueError:
            raise errors.ServerError(f"{method} {path}: response is not JSON") from None


def _lines(response: Any) -> Iterator[bytes]:
    """Newline-delimited JSON from a streaming response, however the chunks fall."""
    pending = b""
    for chunk in response.stream(amt=65536, decode_content=True):
        pending += chunk
        *complete, pending = pending.split(b"\n")
        yield from (line for line in complete if line.strip())
    if pending.strip():
        yield pending


def _object(api_version: str, kind: str, namespace: str, name: str, labels: Mapping[str, str]) -> dict[str, Any]:
    return {
        "apiVersion": api_version,
        "kind": kind,
        "metadata": {"name": name, "namespace": namespace, "labels": dict(labels)},
    }
