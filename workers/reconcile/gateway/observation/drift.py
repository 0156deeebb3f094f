"""Drift between a deployed release's rendered manifest and the live objects (pure; no I/O).

In the spirit of Flux helm-controller's drift detection: every object of the manifest whose kind is
in ``DRIFT_KINDS`` (namespaced, in the release's namespace, labelled with the release as its
``app.kubernetes.io/instance``) is looked up among the live objects and compared as a *subset*: the
fields the chart sets must hold the chart's values; fields the server fills in are ignored.

- Compared: ``metadata.labels`` and ``metadata.annotations`` (the chart's keys only), and every other
  top-level field but ``apiVersion``, ``kind`` and ``status``.
- Ignored: ``status``, every other ``metadata`` field (uid, resourceVersion, generation,
  creationTimestamp, managedFields, ...), labels, annotations and fields the chart does not set
  (defaults, allocated IPs), and a falsy chart value (``false``, ``0``, ``""``, ``{}``, ``[]``, null)
  the server dropped as empty.
- Lists of mappings that all carry a ``name`` (containers, ports, env, volumes) are matched by name,
  and extra live elements (an injected sidecar) are ignored; other lists are compared by position
  and must have the same length.
- Skipped: kinds outside ``DRIFT_KINDS`` (Secrets, Jobs, Gateways, Issuers) and cluster-scoped objects
  (ClusterRoles), because the fleet resync lists only these kinds by the instance label and both
  paths must judge alike. Quantities are compared as written (``1000m`` is not ``1``).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import yaml

from workers.memo import Memo

__all__ = [
    "DRIFT_KINDS",
    "INSTANCE_LABEL",
    "Drift",
    "differences",
    "drift_message",
    "find_drift",
    "manifest_objects",
    "remember_verdicts",
    "remembered_drift",
    "remembered_verdict",
]

INSTANCE_LABEL = "app.kubernetes.io/instance"
# kind -> (apiVersion, plural): what the snapshot lists cluster-wide by the instance label.
DRIFT_KINDS: dict[str, tuple[str, str]] = {
    "StatefulSet": ("apps/v1", "statefulsets"),
    "Deployment": ("apps/v1", "deployments"),
    "Service": ("v1", "services"),
    "ServiceAccount": ("v1", "serviceaccounts"),
    "ConfigMap": ("v1", "configmaps"),
    "NetworkPolicy": ("networking.k8s.io/v1", "networkpolicies"),
    "Role": ("rbac.authorization.k8s.io/v1", "roles"),
    "RoleBinding": ("rbac.authorization.k8s.io/v1", "rolebindings"),
    "GRPCRoute": ("gateway.networking.k8s.io/v1", "grpcroutes"),
    "Route": ("route.openshift.io/v1", "routes"),
    "Certificate": ("cert-manager.io/v1", "certificates"),
}
MAX_DIFFERENCES = 5
MAX_MESSAGE = 1000  # under the condition message limit, so a stored message compares equal to a new one
_SKIPPED_TOP_LEVEL = frozenset({"apiVersion", "kind", "status", "metadata"})
_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# Verdicts kept per worker process (a 16-byte digest and a tuple each), until `remember_verdicts` says how many.
MEMO_SIZE = 50_000
_judged: Memo[tuple[Drift, ...]] = Memo(MEMO_SIZE)


@dataclass(frozen=True)
class Drift:
    """One manifest object that the cluster does not hold as rendered; no ``differences``: it is missing."""

    kind: str
    name: str
    differences: tuple[str, ...] = ()

    def describe(self) -> str:
        if not self.differences:
            return f"{self.kind} {self.name} is missing"
        return f"{self.kind} {self.name} differs at {', '.join(self.differences)}"


@functools.lru_cache(maxsize=256)
def manifest_objects(manifest: str) -> tuple[dict[str, Any], ...]:
    """The objects of a rendered multi-document manifest, parsed once while a pass or a resync needs it again.

    Kept small: every gateway's manifest differs, parsed it is large, and verdicts are remembered per version."""
    return tuple(doc for doc in yaml.load_all(manifest, Loader=_SafeLoader) if isinstance(doc, dict) and doc)


def _same_scalar(desired: Any, live: Any) -> bool:
    # int-or-string fields (ports, targetPort) may come back as the other type.
    return desired == live or (not isinstance(desired, (dict, list)) and str(desired) == str(live))


def _named(items: list[Any]) -> bool:
    return bool(items) and all(isinstance(item, dict) and isinstance(item.get("name"), str) for item in items)


def differences(desired: Any, live: Any, path: str = "") -> list[str]:
    """Paths where ``live`` does not hold ``desired`` (compared as a subset, see the module docstring)."""
    if isinstance(desired, dict):
        if not isinstance(live, dict):
            return [path or "."]
        found: list[str] = []
        for key, value in desired.items():
            where = f"{path}.{key}" if path else str(key)
            if key not in live:
                if value:
                    found.append(where)
                continue
            found += differences(value, live[key], where)
        return found
    if isinstance(desired, list):
        if not isinstance(live, list):
            return [path]
        if _named(desired):
            by_name = {item.get("name"): item for item in live if isinstance(item, dict)}
            found = []
            for item in desired:
                where = f"{path}[{item['name']}]"
                found += differences(item, by_name[item["name"]], where) if item["name"] in by_name else [where]
            return found
        if len(desired) != len(live):
            return [path]
        return [
            d
            for i, (want, have) in enumerate(zip(desired, live, strict=True))
            for d in differences(want, have, f"{path}[{i}]")
        ]
    return [] if _same_scalar(desired, live) else [path]


def _compared(obj: Mapping[str, Any], namespace: str, release: str, kinds: frozenset[str]) -> bool:
    kind, meta = obj.get("kind"), obj.get("metadata") or {}
    return (
        kind in kinds
        and DRIFT_KINDS.get(kind, ("",))[0] == obj.get("apiVersion")
        and meta.get("namespace", namespace) == namespace
        and (meta.get("labels") or {}).get(INSTANCE_LABEL) == release
    )


def _object_differences(desired: Mapping[str, Any], live: Mapping[str, Any]) -> list[str]:
    meta, live_meta = desired.get("metadata") or {}, live.get("metadata") or {}
    found = [
        d
        for key in ("labels", "annotations")
        if meta.get(key)
        for d in differences(meta[key], live_meta.get(key) or {}, f"metadata.{key}")
    ]
    for key, value in desired.items():
        if key not in _SKIPPED_TOP_LEVEL:
            found += differences({key: value}, live)
    return found


def find_drift(
    manifest: str,
    live: Mapping[tuple[str, str], Mapping[str, Any]],
    *,
    namespace: str,
    release: str,
    kinds: frozenset[str],
) -> list[Drift]:
    """The manifest's objects of ``kinds`` that ``live`` (keyed by (kind, name)) lacks or holds otherwise."""
    drifts = []
    for obj in manifest_objects(manifest):
        if not _compared(obj, namespace, release, kinds):
            continue
        kind, name = obj["kind"], obj["metadata"]["name"]
        current = live.get((kind, name))
        if current is None:
            drifts.append(Drift(kind, name))
        elif found := _object_differences(obj, current):
            drifts.append(Drift(kind, name, tuple(found[:MAX_DIFFERENCES])))
    return drifts


def drift_message(drifts: list[Drift]) -> str:
    """One line naming every drifted object and what differs (cut at ``MAX_MESSAGE`` characters)."""
    message = "; ".join(drift.describe() for drift in drifts)
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 1] + "…"


def _judged_key(
    manifest: str,
    live: Mapping[tuple[str, str], Mapping[str, Any]],
    namespace: str,
    release: str,
    kinds: frozenset[str],
) -> bytes | None:
    """A digest of everything ``find_drift`` reads: the manifest, and each live object by its resourceVersion
    (None when an object has none, as in a hand-made view: then nothing is remembered)."""
    parts = [namespace, release, ",".join(sorted(kinds))]
    for (kind, name), obj in sorted(live.items()):
        version = (obj.get("metadata") or {}).get("resourceVersion")
        if not version:
            return None
        parts.append(f"{kind}/{name}@{version}")
    digest = hashlib.blake2b("\n".join(parts).encode(), digest_size=16)
    digest.update(manifest.encode())
    return digest.digest()


def remember_verdicts(count: int) -> None:
    """Keep ``count`` drift verdicts in this process (a gateway's pass and the fleet resync judge it apart)."""
    _judged.resize(count)


def remembered_drift(
    manifest: str,
    live: Mapping[tuple[str, str], Mapping[str, Any]],
    *,
    namespace: str,
    release: str,
    kinds: frozenset[str],
) -> list[Drift]:
    """``find_drift``, remembered per manifest and live object versions: an unchanged release is compared once
    per worker process, however many resyncs judge it."""
    key = _judged_key(manifest, live, namespace, release, kinds)
    judged = _judged.get(
        key, lambda: tuple(find_drift(manifest, live, namespace=namespace, release=release, kinds=kinds))
    )
    return list(judged)


def remembered_verdict(
    manifest: str,
    live: Mapping[tuple[str, str], Mapping[str, Any]],
    *,
    namespace: str,
    release: str,
    kinds: frozenset[str],
) -> tuple[Drift, ...] | None:
    """The drift judged before for exactly these object versions, or None; reads only the objects' metadata."""
    return _judged.peek(_judged_key(manifest, live, namespace, release, kinds))
