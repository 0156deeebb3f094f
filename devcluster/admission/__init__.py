"""Admission: what the API server checks and changes on a create before the object is stored.

The chain follows a real API server's order for pods: ServiceAccount admission (the pod's ServiceAccount
must exist), then on the `openshift` flavour SecurityContextConstraints (mutating: it assigns UIDs, groups
and SELinux levels), then Pod Security Admission (validating, by namespace labels). Namespaces created on
the `openshift` flavour get their UID, supplemental-group and MCS ranges here too. A refusal raises an
``ApiError`` (403 Forbidden) whose message reads as the real one does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from devcluster.cluster import Cluster
    from devcluster.resources import ResourceType

__all__ = ["ADMIN", "AdmissionConfig", "Requester", "admit", "controller"]


@dataclass(frozen=True)
class Requester:
    """Who sends a create: the kubeconfig's user (cluster-admin), or a controller's ServiceAccount."""

    username: str
    groups: tuple[str, ...] = ()


ADMIN = Requester("devcluster-admin", ("system:masters", "system:authenticated"))


def controller(name: str) -> Requester:
    """A kube-controller-manager controller, as it authenticates (`--use-service-account-credentials`)."""
    return Requester(
        f"system:serviceaccount:kube-system:{name}",
        ("system:serviceaccounts", "system:serviceaccounts:kube-system", "system:authenticated"),
    )


@dataclass(frozen=True)
class AdmissionConfig:
    """The cluster-wide admission settings: the flavour, and the Pod Security level of unlabelled namespaces."""

    flavour: str = "kubernetes"
    pod_security_default: str = "privileged"


def admit(cluster: Cluster, rt: ResourceType, namespace: str, obj: dict[str, Any], requester: Requester) -> None:
    """Check (and, where the real chain mutates, change) `obj` in place before it is stored; raise ApiError to refuse.

    Called with the store lock held, once the object's name is known.
    """
    # Filled in by the admission plugins (pods, namespaces); anything else is admitted as it is.
    return None
