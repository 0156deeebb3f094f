"""Kubernetes object semantics on top of the store: create, read, update, patch, delete."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from devcluster import errors, meta
from devcluster.admission import ADMIN, AdmissionConfig, Requester, admit
from devcluster.defaults import Defaulter
from devcluster.field_selectors import field_matcher
from devcluster.paging import RetainedSnapshots, decode_continue, encode_continue
from devcluster.patches import json_merge_patch, json_patch, remove_unowned, strategic_merge_patch
from devcluster.registry import Registry
from devcluster.resources import ResourceType, empty_status
from devcluster.selectors import label_matcher
from devcluster.store import Store

NAMESPACE_KEY = ("", "namespaces")
PODS_KEY = ("", "pods")
CRD_KEY = ("apiextensions.k8s.io", "customresourcedefinitions")
DEFAULT_NAMESPACES = ("default", "kube-system", "kube-public", "kube-node-lease")
UNDELETABLE_NAMESPACES = ("default", "kube-system", "kube-public")

MERGE_PATCH = "application/merge-patch+json"
STRATEGIC_PATCH = "application/strategic-merge-patch+json"
JSON_PATCH = "application/json-patch+json"
APPLY_PATCH = "application/apply-patch+yaml"

_SYSTEM_METADATA = ("uid", "creationTimestamp", "generation", "deletionTimestamp", "deletionGracePeriodSeconds")

# Groups of the built-in kinds: deleting one of their objects answers a Status, as upstream.
_BUILTIN_GROUPS = ("", "apps", "autoscaling", "batch", "rbac.authorization.k8s.io", "networking.k8s.io", "policy")


class Cluster:
    """The API semantics (validation, defaulting, conflicts, cascades) shared by HTTP and controllers."""

    def __init__(
        self,
        store: Store,
        registry: Registry,
        retained: RetainedSnapshots | None = None,
        admission: AdmissionConfig | None = None,
    ) -> None:
        self.store = store
        self.registry = registry
        self.retained = retained or RetainedSnapshots()
        self.admission = admission or AdmissionConfig()
        self._defaulter = Defaulter()
        self._applied: dict[tuple[Any, ...], Any] = {}
        # Whether a pod's deletion is graceful (its processes run; the kubelet removes it once they stopped).
        self.graceful_pod: Callable[[dict[str, Any]], bool] | None = None

    # -- reads -----------------------------------------------------------------------------------

    def get(self, rt: ResourceType, namespace: str, name: str) -> dict[str, Any]:
        obj = self.store.get(rt.storage_key, namespace, name)
        if obj is None:
            raise errors.not_found(rt.group, rt.plural, name)
        return present(rt, obj)

    def list(
        self,
        rt: ResourceType,
        namespace: str | None,
        label_selector: str = "",
        field_selector: str = "",
        limit: int = 0,
        continue_token: str = "",
    ) -> dict[str, Any]:
        """One chunk of a list (everything when `limit` is 0). Items share nested data with the store:
        serialize them, never mutate them. Every chunk comes from the snapshot the first chunk was cut from."""
        matches = _selector(rt, label_selector, field_selector)
        if continue_token:
            rv, after = decode_continue(continue_token)
            snapshot = self.retained.get(rt.storage_key, rv)
        else:
            with self.store.lock:
                rv, snapshot, after = self.store.resource_version, self.store.snapshot(rt.storage_key), None
        page = snapshot.page(namespace or None, matches, after, limit)
        metadata: dict[str, Any] = {"resourceVersion": str(rv)}
        if page.last is not None:
            self.retained.retain(rt.storage_key, rv, snapshot)
            metadata["continue"] = encode_continue(rv, page.last)
            if page.remaining is not None:
                metadata["remainingItemCount"] = page.remaining
        return {
            "kind": f"{rt.kind}List",
            "apiVersion": rt.group_version,
            "metadata": metadata,
            "items": [present(rt, dict(obj)) for obj in page.items],
        }

    # -- writes ----------------------------------------------------------------------------------

    def create(
        self, rt: ResourceType, namespace: str, body: Any, dry_run: bool = False, requester: Requester = ADMIN
    ) -> dict[str, Any]:
        obj = self._checked_body(rt, namespace, body)
        metadata = obj["metadata"]
        generated = None
        if not metadata.get("name"):
            if not metadata.get("generateName"):
                raise errors.invalid(
                    rt.group, rt.kind, "", "metadata.name", "Required value: name or generateName is required"
                )
            metadata["name"] = generated = meta.generated_name(metadata["generateName"])
        meta.validate_name(rt, metadata["name"])
        with self.store.lock:
            self._require_open_namespace(rt, namespace)
            if self.store.get(rt.storage_key, namespace, metadata["name"]) is not None:
                raise errors.already_exists(rt.group, rt.plural, metadata["name"])
            for field in (*_SYSTEM_METADATA, "resourceVersion"):
                metadata.pop(field, None)
            metadata["uid"] = meta.new_uid()
            metadata["creationTimestamp"] = meta.now()
            if rt.has_status and rt.storage_key != NAMESPACE_KEY:
                # A built-in type's status is a struct, so a new object is answered with one (see
                # resources.EMPTY_STATUS); a custom resource's status stays absent until something writes it.
                obj.pop("status", None)
                if rt.builtin:
                    obj["status"] = empty_status(rt)
            if generated is None:
                admit(self, rt, namespace, obj, requester)
            else:
                # Admission sees the request's generateName, as its refusals upstream name the object
                # (`pods "web-5d4f8-" is forbidden: ...`); the generated name is given after.
                metadata["name"] = metadata["generateName"]
                admit(self, rt, namespace, obj, requester)
                metadata["name"] = generated
            return self._write(rt, obj, None, dry_run)

    def replace(
        self, rt: ResourceType, namespace: str, name: str, body: Any, subresource: str = "", dry_run: bool = False
    ) -> dict[str, Any]:
        obj = self._checked_body(rt, namespace, body)
        if obj["metadata"].get("name", name) != name:
            raise errors.bad_request("the name of the object does not match the name on the URL")
        obj["metadata"]["name"] = name
        with self.store.lock:
            old = self.store.get(rt.storage_key, namespace, name)
            if old is None:
                raise errors.not_found(rt.group, rt.plural, name)
            wanted_rv = obj["metadata"].get("resourceVersion")
            if wanted_rv and wanted_rv != old["metadata"]["resourceVersion"]:
                raise errors.conflict(
                    rt.group,
                    rt.plural,
                    name,
                    "the object has been modified; please apply your changes to the latest version and try again",
                )
            return self._update(rt, old, obj, subresource, dry_run)

    def patch(
        self,
        rt: ResourceType,
        namespace: str,
        name: str,
        patch_type: str,
        patch: Any,
        subresource: str = "",
        field_manager: str = "",
        dry_run: bool = False,
    ) -> tuple[dict[str, Any], bool]:
        """Apply a patch; returns the result and whether the object was created (server-side apply)."""
        with self.store.lock:
            old = self.store.get(rt.storage_key, namespace, name)
            if patch_type == APPLY_PATCH:
                return self._apply(rt, namespace, name, old, patch, subresource, field_manager, dry_run)
            if old is None:
                raise errors.not_found(rt.group, rt.plural, name)
            current = present(rt, copy.deepcopy(old))
            if patch_type == MERGE_PATCH:
                patched = json_merge_patch(current, patch)
            elif patch_type == STRATEGIC_PATCH:
                patched = strategic_merge_patch(current, patch)
            elif patch_type == JSON_PATCH:
                patched = json_patch(current, patch)
            else:
                raise errors.unsupported_media_type(patch_type)
            if not isinstance(patched, dict) or not isinstance(patched.get("metadata"), dict):
                raise errors.bad_request("the patch result is not a valid object")
            if patched["metadata"].get("resourceVersion") != old["metadata"]["resourceVersion"]:
                raise errors.conflict(rt.group, rt.plural, name, "the object has been modified")
            return self._update(rt, old, patched, subresource, dry_run), False

    def delete(
        self, rt: ResourceType, namespace: str, name: str, options: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        options = options or {}
        dry_run = bool(options.get("dryRun"))
        with self.store.lock:
            old = self.store.get(rt.storage_key, namespace, name)
            if old is None:
                raise errors.not_found(rt.group, rt.plural, name)
            self._check_preconditions(rt, old, options.get("preconditions") or {})
            if rt.storage_key == NAMESPACE_KEY and name in UNDELETABLE_NAMESPACES:
                raise errors.forbidden(f'namespaces "{name}" is forbidden: this namespace may not be deleted')
            if dry_run:
                return present(rt, old)
            if old["metadata"].get("finalizers") or rt.storage_key == NAMESPACE_KEY:
                return present(rt, self._mark_deleting(rt, old))
            grace = self._grace_period(rt, old, options)
            if grace:
                return present(rt, self._mark_terminating(old, grace))
            removed = self._remove(rt, old, options.get("propagationPolicy") != "Orphan")
            if rt.group in _BUILTIN_GROUPS:
                return deleted_status(rt, removed)
            return present(rt, removed)

    def delete_collection(
        self, rt: ResourceType, namespace: str | None, label_selector: str, field_selector: str, options: dict[str, Any]
    ) -> dict[str, Any]:
        with self.store.lock:
            listing = self.list(rt, namespace, label_selector, field_selector)
            for item in listing["items"]:
                self.delete(rt, item["metadata"].get("namespace", ""), item["metadata"]["name"], options)
            return listing

    def update_status(
        self, rt: ResourceType, namespace: str, name: str, mutate: Callable[[dict[str, Any]], bool]
    ) -> None:
        """For controllers: change an object in place under the lock; `mutate` returns whether it changed."""
        with self.store.lock:
            obj = self.store.get(rt.storage_key, namespace, name)
            if obj is not None and mutate(obj):
                self.store.save(rt.storage_key, obj)

    def remove_namespace_contents(self, namespace: str) -> None:
        """Namespace finalization: delete every namespaced object, then the namespace itself."""
        with self.store.lock:
            for rt in {rt.storage_key: rt for rt in self.registry.all() if rt.namespaced}.values():
                for obj in self.store.list(rt.storage_key, namespace):
                    self._remove(rt, obj, cascade=False)
            self.store.remove(NAMESPACE_KEY, "", namespace)

    def ensure_namespace(self, name: str) -> None:
        namespace_type = self.registry.lookup("", "v1", "namespaces")
        assert namespace_type is not None
        if self.store.get(NAMESPACE_KEY, "", name) is None:
            self.create(namespace_type, "", {"metadata": {"name": name}})

    # -- internals -------------------------------------------------------------------------------

    def _checked_body(self, rt: ResourceType, namespace: str, body: Any) -> dict[str, Any]:
        if not isinstance(body, dict):
            raise errors.bad_request("the request body must be an object")
        obj = copy.deepcopy(body)
        if obj.get("kind") not in (None, "", rt.kind):
            raise errors.bad_request(f"the kind {obj['kind']!r} does not match the resource {rt.kind!r}")
        metadata = obj.get("metadata")
        if metadata is None:
            metadata = obj["metadata"] = {}
        if not isinstance(metadata, dict):
            raise errors.bad_request("metadata must be an object")
        if rt.namespaced:
            if metadata.get("namespace") not in (None, "", namespace):
                raise errors.bad_request(
                    "the namespace of the provided object does not match the namespace sent on the request"
                )
            metadata["namespace"] = namespace
        else:
            metadata.pop("namespace", None)
        return obj

    def _require_open_namespace(self, rt: ResourceType, namespace: str) -> None:
        if not rt.namespaced:
            return
        ns = self.store.get(NAMESPACE_KEY, "", namespace)
        if ns is None:
            raise errors.not_found("", "namespaces", namespace)
        if ns["metadata"].get("deletionTimestamp"):
            raise errors.forbidden(
                f'{rt.plural} "{namespace}" is forbidden: unable to create new content in namespace '
                f"{namespace} because it is being terminated"
            )

    def _update(
        self, rt: ResourceType, old: dict[str, Any], new: dict[str, Any], subresource: str, dry_run: bool
    ) -> dict[str, Any]:
        if subresource == "status":
            status = new.get("status")
            new = copy.deepcopy(old)
            new["status"] = status
        elif subresource:
            raise errors.page_not_found(f"{rt.plural}/{subresource}")
        elif rt.has_status and rt.storage_key != NAMESPACE_KEY:
            new.pop("status", None)
            if "status" in old:
                new["status"] = old["status"]
        for field in _SYSTEM_METADATA:
            new["metadata"].pop(field, None)
            if field in old["metadata"]:
                new["metadata"][field] = old["metadata"][field]
        finalized = old["metadata"].get("deletionTimestamp") and not new["metadata"].get("finalizers")
        if finalized and rt.storage_key != NAMESPACE_KEY and not dry_run:
            return present(rt, self._remove(rt, new, cascade=True))
        return self._write(rt, new, old, dry_run)

    def _apply(
        self,
        rt: ResourceType,
        namespace: str,
        name: str,
        old: dict[str, Any] | None,
        patch: Any,
        subresource: str,
        field_manager: str,
        dry_run: bool,
    ) -> tuple[dict[str, Any], bool]:
        if not field_manager:
            raise errors.bad_request("PATCH requests with server-side apply must specify fieldManager")
        config = self._checked_body(rt, namespace, patch)
        config["metadata"].setdefault("name", name)
        if config["metadata"]["name"] != name:
            raise errors.bad_request("the name of the object does not match the name on the URL")
        key = (rt.storage_key, namespace, name, field_manager, subresource)
        if old is None:
            if subresource:
                raise errors.not_found(rt.group, rt.plural, name)
            result = self.create(rt, namespace, config, dry_run)
            if not dry_run:
                self._applied[key] = config
            return result, True
        current = present(rt, copy.deepcopy(old))
        base = remove_unowned(current, self._applied.get(key), config)
        merged = strategic_merge_patch(base, config)
        merged["metadata"]["resourceVersion"] = old["metadata"]["resourceVersion"]
        result = self._update(rt, old, merged, subresource, dry_run)
        if not dry_run:
            self._applied[key] = config
        return result, False

    def _write(
        self, rt: ResourceType, obj: dict[str, Any], old: dict[str, Any] | None, dry_run: bool
    ) -> dict[str, Any]:
        obj["apiVersion"], obj["kind"] = rt.group_version, rt.kind
        self._defaulter.apply(rt, obj, old)
        metadata = obj["metadata"]
        if old is None:
            metadata["generation"] = 1
        elif _spec_of(obj) != _spec_of(old):
            metadata["generation"] = old["metadata"].get("generation", 1) + 1
        if dry_run:
            metadata["resourceVersion"] = (old or {}).get("metadata", {}).get("resourceVersion", "")
            return present(rt, obj)
        if old is not None:
            metadata["resourceVersion"] = old["metadata"]["resourceVersion"]
            if obj == {**old, "apiVersion": obj["apiVersion"], "kind": obj["kind"]}:
                return present(rt, old)
        saved = self.store.save(rt.storage_key, obj)
        if rt.storage_key == CRD_KEY:
            self.registry.rebuild(self.store.list(CRD_KEY))
        return present(rt, saved)

    def _mark_deleting(self, rt: ResourceType, old: dict[str, Any]) -> dict[str, Any]:
        if old["metadata"].get("deletionTimestamp"):
            return old
        old["metadata"]["deletionTimestamp"] = meta.now()
        old["metadata"]["deletionGracePeriodSeconds"] = 0
        if rt.storage_key == NAMESPACE_KEY:
            old.setdefault("status", {})["phase"] = "Terminating"
        return self.store.save(rt.storage_key, old)

    def _grace_period(self, rt: ResourceType, pod: dict[str, Any], options: dict[str, Any]) -> int:
        """Seconds a graceful pod deletion gives the pod's processes (0: remove the pod now), as upstream:
        the request's gracePeriodSeconds, else the pod's terminationGracePeriodSeconds (default 30)."""
        if rt.storage_key != PODS_KEY or self.graceful_pod is None or not self.graceful_pod(pod):
            return 0
        requested = options.get("gracePeriodSeconds")
        default = (pod.get("spec") or {}).get("terminationGracePeriodSeconds", 30)
        grace = int(default if requested is None else requested)
        current = pod["metadata"].get("deletionGracePeriodSeconds")
        return grace if current is None else min(grace, int(current))

    def _mark_terminating(self, pod: dict[str, Any], grace: int) -> dict[str, Any]:
        meta_ = pod["metadata"]
        if meta_.get("deletionTimestamp") and meta_.get("deletionGracePeriodSeconds") == grace:
            return pod
        meta_.setdefault("deletionTimestamp", meta.now())
        meta_["deletionGracePeriodSeconds"] = grace
        return self.store.save(PODS_KEY, pod)

    def _remove(self, rt: ResourceType, obj: dict[str, Any], cascade: bool) -> dict[str, Any]:
        metadata = obj["metadata"]
        ident = (rt.storage_key, metadata.get("namespace", ""), metadata["name"])
        removed = self.store.remove(*ident)
        for key in [key for key in self._applied if key[:3] == ident]:
            del self._applied[key]
        if rt.storage_key == CRD_KEY:
            spec = obj.get("spec") or {}
            custom_key = (spec.get("group", ""), (spec.get("names") or {}).get("plural", ""))
            for item in self.store.list(custom_key):
                self.store.remove(custom_key, item["metadata"].get("namespace", ""), item["metadata"]["name"])
            self.registry.rebuild(self.store.list(CRD_KEY))
        if cascade:
            self._collect_dependents(metadata["uid"])
        return removed or obj

    def _collect_dependents(self, owner_uid: str) -> None:
        """Garbage-collect objects whose ownerReferences point at a deleted owner."""

        def owned(obj: dict[str, Any]) -> bool:
            return any(ref.get("uid") == owner_uid for ref in obj["metadata"].get("ownerReferences") or [])

        for rt in {rt.storage_key: rt for rt in self.registry.all()}.values():
            for obj in self.store.list(rt.storage_key, matches=owned):
                self._remove(rt, obj, cascade=True)

    def _check_preconditions(self, rt: ResourceType, old: dict[str, Any], preconditions: dict[str, Any]) -> None:
        for field in ("uid", "resourceVersion"):
            wanted = preconditions.get(field)
            if wanted and wanted != old["metadata"].get(field):
                raise errors.conflict(
                    rt.group, rt.plural, old["metadata"]["name"], f"Precondition failed: {field} mismatch"
                )


def _selector(rt: ResourceType, label_selector: str, field_selector: str) -> Callable[[dict[str, Any]], bool] | None:
    """A predicate for both selectors over objects of ``rt``, or None when neither selects anything."""
    if not label_selector.strip() and not field_selector.strip():
        return None
    labels, fields = label_matcher(label_selector), field_matcher(field_selector, (rt.group, rt.plural))
    return lambda obj: labels(obj) and fields(obj)


def present(rt: ResourceType, obj: dict[str, Any]) -> dict[str, Any]:
    """The object as served at the requested version (no conversion beyond apiVersion/kind)."""
    obj["apiVersion"], obj["kind"] = rt.group_version, rt.kind
    return obj


def deleted_status(rt: ResourceType, obj: dict[str, Any]) -> dict[str, Any]:
    return {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Success",
        "details": {
            "name": obj["metadata"]["name"],
            "group": rt.group,
            "kind": rt.plural,
            "uid": obj["metadata"]["uid"],
        },
    }


def _spec_of(obj: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in obj.items() if k not in ("metadata", "status", "apiVersion", "kind")}
