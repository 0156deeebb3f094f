"""Admission: what the API server checks and changes on a create before the object is stored.

The chain follows a real API server's order for pods: ServiceAccount admission (the pod's ServiceAccount
must exist), then on the `openshift` flavour SecurityContextConstraints (mutating: it assigns UIDs, groups
and SELinux levels), then Pod Security Admission (validating, by namespace labels). Namespaces created on
the `openshift` flavour get their UID, supplemental-group and MCS ranges here too. A refusal raises an
``ApiError`` (403 Forbidden) whose message reads as the real one does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from devcluster.admission import pod_security, scc, service_accounts
from devcluster.admission.requester import ADMIN, Requester, controller, service_account

if TYPE_CHECKING:
    from devcluster.resources import ResourceType
    from devcluster.store import Store

__all__ = ["ADMIN", "AdmissionConfig", "Requester", "admit", "controller", "service_account"]

POD_KEY = ("", "pods")
NAMESPACE_KEY = ("", "namespaces")


@dataclass(frozen=True)
class AdmissionConfig:
    """The cluster-wide admission settings: the flavour, and the Pod Security level of unlabelled namespaces."""

    flavour: str = "kubernetes"
    pod_security_default: str = "privileged"


class Admitting(Protocol):
    """What admission reads of the cluster (``devcluster.cluster.Cluster``, which calls ``admit``)."""

    @property
    def admission(self) -> AdmissionConfig: ...

    @property
    def store(self) -> Store: ...


def admit(cluster: Admitting, rt: ResourceType, namespace: str, obj: dict[str, Any], requester: Requester) -> None:
    """Check (and, where the real chain mutates, change) `obj` in place before it is stored; raise ApiError to refuse.

    Called with the store lock held, once the object's name is known.
    """
    openshift = cluster.admission.flavour == "openshift"
    if rt.storage_key == NAMESPACE_KEY and openshift:
        scc.allocate_namespace_ranges(cluster.store, obj)
    if rt.storage_key != POD_KEY:
        return
    name = obj["metadata"]["name"]
    service_accounts.admit_pod(cluster.store, namespace, name, obj)
    ns = cluster.store.get(NAMESPACE_KEY, "", namespace) or {"metadata": {"name": namespace}}
    if openshift:
        scc.admit_pod(cluster.store, ns, name, obj, requester)
    labels = ns["metadata"].get("labels") or {}
    pod_security.enforce(labels, cluster.admission.pod_security_default, name, obj)
