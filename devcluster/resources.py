"""Resource types served by the simulator: the built-in kinds and those defined by CRDs."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

ALL_VERBS = ("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch")


@dataclass(frozen=True)
class ResourceType:
    """One served group/version/resource, with what discovery needs to describe it."""

    group: str
    version: str
    kind: str
    plural: str
    namespaced: bool
    short_names: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    has_status: bool = False
    builtin: bool = False
    schema: dict[str, Any] | None = field(default=None, compare=False, hash=False)

    @property
    def group_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    @property
    def singular(self) -> str:
        return self.kind.lower()

    @property
    def storage_key(self) -> tuple[str, str]:
        """Objects are stored once per group and resource, whatever version they are served at."""
        return (self.group, self.plural)

    @property
    def storage_version_hash(self) -> str:
        digest = hashlib.sha256(f"{self.group_version}/{self.kind}".encode()).digest()
        return digest[:8].hex()


def _builtin(group: str, version: str, kind: str, plural: str, namespaced: bool = True, **extra: Any) -> ResourceType:
    return ResourceType(
        group=group, version=version, kind=kind, plural=plural, namespaced=namespaced, builtin=True, **extra
    )


# What kube-apiserver answers as a new built-in object's status: a struct, so `{}`, with the fields its Go type
# serialises without `omitempty` (the ones the OpenAPI schema requires) at zero.
EMPTY_STATUS: dict[tuple[str, str], dict[str, Any]] = {
    ("apps", "StatefulSet"): {"replicas": 0, "availableReplicas": 0},
    ("apps", "ReplicaSet"): {"replicas": 0},
    ("apps", "DaemonSet"): {
        "currentNumberScheduled": 0,
        "numberMisscheduled": 0,
        "desiredNumberScheduled": 0,
        "numberReady": 0,
    },
    ("policy", "PodDisruptionBudget"): {
        "disruptionsAllowed": 0,
        "currentHealthy": 0,
        "desiredHealthy": 0,
        "expectedPods": 0,
    },
    ("autoscaling", "HorizontalPodAutoscaler"): {"desiredReplicas": 0},
}


def empty_status(rt: ResourceType) -> dict[str, Any]:
    return dict(EMPTY_STATUS.get((rt.group, rt.kind), {}))


BUILTIN_TYPES: tuple[ResourceType, ...] = (
    _builtin("", "v1", "Namespace", "namespaces", False, short_names=("ns",), has_status=True),
    _builtin("", "v1", "Secret", "secrets"),
    _builtin("", "v1", "ConfigMap", "configmaps", short_names=("cm",)),
    _builtin("", "v1", "ServiceAccount", "serviceaccounts", short_names=("sa",)),
    _builtin("", "v1", "Service", "services", short_names=("svc",), categories=("all",), has_status=True),
    _builtin("", "v1", "Pod", "pods", short_names=("po",), categories=("all",), has_status=True),
    _builtin("", "v1", "Endpoints", "endpoints", short_names=("ep",)),
    _builtin("", "v1", "Event", "events", short_names=("ev",)),
    _builtin("", "v1", "PersistentVolumeClaim", "persistentvolumeclaims", short_names=("pvc",), has_status=True),
    _builtin("apps", "v1", "Deployment", "deployments", short_names=("deploy",), categories=("all",), has_status=True),
    _builtin("apps", "v1", "StatefulSet", "statefulsets", short_names=("sts",), categories=("all",), has_status=True),
    _builtin("apps", "v1", "ReplicaSet", "replicasets", short_names=("rs",), categories=("all",), has_status=True),
    _builtin("apps", "v1", "DaemonSet", "daemonsets", short_names=("ds",), categories=("all",), has_status=True),
    _builtin("batch", "v1", "Job", "jobs", categories=("all",), has_status=True),
    _builtin("batch", "v1", "CronJob", "cronjobs", short_names=("cj",), categories=("all",), has_status=True),
    _builtin("rbac.authorization.k8s.io", "v1", "Role", "roles"),
    _builtin("rbac.authorization.k8s.io", "v1", "RoleBinding", "rolebindings"),
    _builtin("rbac.authorization.k8s.io", "v1", "ClusterRole", "clusterroles", False),
    _builtin("rbac.authorization.k8s.io", "v1", "ClusterRoleBinding", "clusterrolebindings", False),
    _builtin("networking.k8s.io", "v1", "NetworkPolicy", "networkpolicies", short_names=("netpol",)),
    _builtin("networking.k8s.io", "v1", "Ingress", "ingresses", short_names=("ing",), has_status=True),
    _builtin("policy", "v1", "PodDisruptionBudget", "poddisruptionbudgets", short_names=("pdb",), has_status=True),
    _builtin(
        "autoscaling",
        "v2",
        "HorizontalPodAutoscaler",
        "horizontalpodautoscalers",
        short_names=("hpa",),
        categories=("all",),
        has_status=True,
    ),
    _builtin(
        "apiextensions.k8s.io",
        "v1",
        "CustomResourceDefinition",
        "customresourcedefinitions",
        False,
        short_names=("crd", "crds"),
        has_status=True,
    ),
)


def types_from_crd(crd: dict[str, Any]) -> list[ResourceType]:
    """The resource types a CustomResourceDefinition serves (one per served version)."""
    spec = crd.get("spec") or {}
    names = spec.get("names") or {}
    served = []
    for version in spec.get("versions") or []:
        if not version.get("served", True):
            continue
        subresources = version.get("subresources") or {}
        served.append(
            ResourceType(
                group=spec.get("group", ""),
                version=version["name"],
                kind=names.get("kind", ""),
                plural=names.get("plural", ""),
                namespaced=spec.get("scope", "Namespaced") == "Namespaced",
                short_names=tuple(names.get("shortNames") or ()),
                categories=tuple(names.get("categories") or ()),
                has_status="status" in subresources,
                schema=(version.get("schema") or {}).get("openAPIV3Schema"),
            )
        )
    return served
