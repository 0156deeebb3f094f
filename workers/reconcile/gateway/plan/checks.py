"""What a gateway needs from its cluster before Helm runs, checked against what the cluster holds (pure).

The reconciler creates the namespace, the DB credentials Secret, the CA bundle and the SCC binding
itself, so those are reported as present or "will be created". What it cannot create blocks the
plan: an API the values need that the cluster does not serve, the tenant's OIDC CA ConfigMap, or a
namespace that is being deleted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cluster_vocabulary.kubernetes import NamespacePhase
from controlplane.capabilities import needed_apis
from workers.reconcile.gateway.request import GatewayRequest

__all__ = [
    "MISSING",
    "PRESENT",
    "WILL_CREATE",
    "Check",
    "ClusterObjects",
    "prerequisite_checks",
]

PRESENT, WILL_CREATE, MISSING = "present", "will-create", "missing"


@dataclass(frozen=True)
class Check:
    name: str
    state: str  # present, will-create or missing
    message: str

    @property
    def blocking(self) -> bool:
        return self.state == MISSING

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "state": self.state, "message": self.message}


@dataclass(frozen=True)
class ClusterObjects:
    """What the plan read from the cluster: served APIs, and the gateway namespace's relevant objects."""

    served_apis: frozenset[str]  # group/versions, as Helm's --api-versions takes them
    namespace_phase: str | None  # None: the namespace does not exist
    secrets: frozenset[str] = frozenset()
    configmaps: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    rolebindings: frozenset[str] = frozenset()
    served_resources: frozenset[str] = frozenset()  # <group>/<version>/<plural> of the resources probed one by one


def _present(name: str, exists: bool, what: str) -> Check:
    if exists:
        return Check(name, PRESENT, f"{what} exists")
    return Check(name, WILL_CREATE, f"{what} will be created before Helm runs")


def prerequisite_checks(
    request: GatewayRequest,
    values: Mapping[str, Any],
    cluster: ClusterObjects,
    *,
    ca_configmap: str,
    scc_binding: str,
) -> list[Check]:
    """One check per prerequisite the gateway has, and one per API its effective ``values`` need."""
    ns, pre = request.namespace, request.prerequisites
    if cluster.namespace_phase == NamespacePhase.TERMINATING:
        checks = [Check("Namespace", MISSING, f"Namespace {ns} is being deleted; wait until it is gone")]
    else:
        checks = [_present("Namespace", cluster.namespace_phase is not None, f"Namespace {ns}")]
    if pre.db_uri:
        checks.append(
            _present(
                "DB credentials Secret", pre.db_secret_name in cluster.secrets, f"Secret {pre.db_secret_name} (key uri)"
            )
        )
    if pre.oidc_ca_configmap:
        data = cluster.configmaps.get(pre.oidc_ca_configmap)
        if data is None or not str(data.get("ca.crt", "")).strip():
            state, message = MISSING, f"ConfigMap {ns}/{pre.oidc_ca_configmap} (the OIDC CA) with key ca.crt is missing"
        else:
            state, message = PRESENT, f"ConfigMap {pre.oidc_ca_configmap} (the OIDC CA) has ca.crt"
        checks.append(Check("OIDC CA ConfigMap", state, message))
    if pre.trusted_ca or pre.oidc_ca_configmap:
        checks.append(_present("CA bundle ConfigMap", ca_configmap in cluster.configmaps, f"ConfigMap {ca_configmap}"))
    if pre.scc_binding:
        checks.append(_present("SCC RoleBinding", scc_binding in cluster.rolebindings, f"RoleBinding {scc_binding}"))
    served = cluster.served_apis | cluster.served_resources
    for api in needed_apis(values):
        if api.served(served):
            checks.append(
                Check(f"API {api.label}", PRESENT, f"{api.label}: the cluster serves it ({api.switch_name} is on)")
            )
        else:
            versions = ", ".join(api.served_as)
            message = f"{api.label}: the cluster serves none of {versions}, which {api.switch_name} needs"
            checks.append(Check(f"API {api.label}", MISSING, message))
    return checks
