"""The namespace and the objects the chart needs but cannot create: DB secret, trusted CA, SCC binding."""

from __future__ import annotations

from workers.reconcile.gateway.io import SCC_CLUSTER_ROLE, TRUSTED_CA_CONFIGMAP, PassIo
from workers.reconcile.gateway.request import GatewayRequest

__all__ = ["ensure_prerequisites", "remove_prerequisites", "scc_binding_name"]


def scc_binding_name(release: str) -> str:
    return f"{release}-sandbox-privileged-scc"


def ensure_prerequisites(request: GatewayRequest, io: PassIo) -> None:
    """Create or repair everything Helm relies on; remove what the spec no longer asks for."""
    ns, labels, pre = request.namespace, request.namespace_labels, request.prerequisites
    io.kube.ensure_namespace(ns, labels)
    if pre.db_uri:
        io.kube.apply_secret(ns, pre.db_secret_name, {"uri": pre.db_uri}, labels)
    else:
        io.kube.delete("Secret", ns, pre.db_secret_name)
    if pre.trusted_ca:
        io.kube.apply_configmap(ns, TRUSTED_CA_CONFIGMAP, {"ca.crt": pre.trusted_ca}, labels)
    else:
        io.kube.delete("ConfigMap", ns, TRUSTED_CA_CONFIGMAP)
    if pre.scc_binding:
        io.kube.apply_rolebinding(
            ns,
            scc_binding_name(request.release),
            {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": SCC_CLUSTER_ROLE},
            [{"kind": "ServiceAccount", "name": pre.sandbox_service_account, "namespace": ns}],
            labels,
        )


def remove_prerequisites(request: GatewayRequest, io: PassIo) -> None:
    ns = request.namespace
    io.kube.delete("Secret", ns, request.prerequisites.db_secret_name)
    io.kube.delete("ConfigMap", ns, TRUSTED_CA_CONFIGMAP)
    io.kube.delete("RoleBinding", ns, scc_binding_name(request.release))
