"""The namespace and the objects the chart needs but cannot create: DB secret, CA bundle, SCC binding."""

from __future__ import annotations

from gateways.values import TRUSTED_CA_CONFIGMAP, TRUSTED_CA_KEY
from workers.drivers.errors import NotFound
from workers.reconcile.gateway.pass_io import PassIo
from workers.reconcile.gateway.request import GatewayRequest

__all__ = ["SCC_CLUSTER_ROLE", "ca_bundle", "ensure_prerequisites", "remove_prerequisites", "scc_binding_name"]

# The OpenShift ClusterRole that grants the privileged SCC the sandbox service account needs.
SCC_CLUSTER_ROLE = "system:openshift:scc:privileged"


def scc_binding_name(release: str) -> str:
    return f"{release}-sandbox-privileged-scc"


def ca_bundle(*pems: str | None) -> str | None:
    """The PEM blocks concatenated in order, each ending with a newline; None when there are none."""
    parts = [pem.strip() + "\n" for pem in pems if pem and pem.strip()]
    return "".join(parts) or None


def _tenant_ca(io: PassIo, namespace: str, name: str) -> str:
    """The `ca.crt` of the tenant's ConfigMap `name`; NotFound (naming it) when it or the key is missing."""
    for configmap in io.kube.list_objects("v1", "configmaps", namespace):
        if configmap["metadata"]["name"] == name:
            pem = (configmap.get("data") or {}).get(TRUSTED_CA_KEY, "")
            if pem.strip():
                return pem
            raise NotFound(f"ConfigMap {namespace}/{name} (the OIDC CA) has no {TRUSTED_CA_KEY!r} key")
    raise NotFound(f"ConfigMap {namespace}/{name} (the OIDC CA) does not exist; create it with key {TRUSTED_CA_KEY!r}")


def ensure_prerequisites(request: GatewayRequest, io: PassIo) -> None:
    """Create or repair everything Helm relies on; remove what the spec no longer asks for."""
    ns, labels, pre = request.namespace, request.namespace_labels, request.prerequisites
    io.kube.ensure_namespace(ns, request.namespace_object_labels)
    if pre.db_uri:
        io.kube.apply_secret(ns, pre.db_secret_name, {"uri": pre.db_uri}, labels)
    else:
        io.kube.delete("Secret", ns, pre.db_secret_name)
    tenant_ca = _tenant_ca(io, ns, pre.oidc_ca_configmap) if pre.oidc_ca_configmap else None
    bundle = ca_bundle(pre.trusted_ca, tenant_ca)
    if bundle:
        io.kube.apply_configmap(ns, TRUSTED_CA_CONFIGMAP, {TRUSTED_CA_KEY: bundle}, labels)
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
