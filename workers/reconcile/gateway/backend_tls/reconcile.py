"""Reconcile the BackendTLSPolicy and BackendCA ConfigMap of a gateway routed through the Gateway API (I/O).

See ``objects`` for why. They are made after Helm, from the server certificate the chart's
certgen hook (or cert-manager) issued, written again when it or the hostname changes, removed when the route
or TLS is turned off, and removed with the gateway.
"""

from __future__ import annotations

from workers.reconcile.gateway.backend_tls.objects import (
    BACKEND_TLS_GROUP,
    BACKEND_TLS_PLURAL,
    BACKEND_TLS_VERSIONS,
    CertificateProblem,
    backend_ca_name,
    backend_tls_name,
    backend_tls_objects,
    holds_as_desired,
    route_backend_service,
    server_certificate,
)
from workers.reconcile.gateway.observation.view import GatewayView
from workers.reconcile.gateway.pass_io import PassIo
from workers.reconcile.gateway.request import GatewayRequest

__all__ = ["reconcile_backend_tls", "remove_backend_tls"]


def reconcile_backend_tls(request: GatewayRequest, io: PassIo, view: GatewayView) -> str | None:
    """Create, update or remove both objects; answer why TLS to the pod is not in place yet (None: it is, or not
    needed)."""
    secret, ns = request.backend_tls_secret, request.namespace
    if secret is None:
        if view.backend_tls_policy(request.release) is not None or view.backend_ca is not None:
            remove_backend_tls(request, io)
        return None
    if view.release is None:
        return None
    service = route_backend_service(view.release.manifest)
    if service is None:
        return "The release renders no GRPCRoute backend Service to secure"
    version = _served_version(io, view)
    if version is None:
        return f"The cluster does not serve BackendTLSPolicy ({BACKEND_TLS_GROUP}), which TLS to the gateway pod needs"
    stored = io.kube.read_secret(ns, secret)
    if stored is None:
        return f"Waiting for the server certificate Secret {ns}/{secret}"
    try:
        tls = server_certificate(stored.data, secret, service, ns)
    except CertificateProblem as exc:
        return str(exc)
    configmap, policy = backend_tls_objects(
        request.release, ns, service, tls, version, request.namespace_labels, stored.resource_version
    )
    if not holds_as_desired(view.backend_ca, configmap):
        io.kube.apply_object(configmap, "configmaps")
    if not holds_as_desired(view.backend_tls_policy(request.release), policy):
        io.kube.apply_object(policy, BACKEND_TLS_PLURAL)
    return None


def _served_version(io: PassIo, view: GatewayView) -> str | None:
    """The preferred version of the BackendTLSPolicy API the cluster serves: as the pass's listing found it, else
    by discovery (None: none)."""
    listed = view.backend_tls_api_version
    if listed is not None:
        return listed.removeprefix(f"{BACKEND_TLS_GROUP}/") or None
    served = io.kube.served_versions(BACKEND_TLS_GROUP, BACKEND_TLS_PLURAL)
    return next((v for v in BACKEND_TLS_VERSIONS if v in served), None)


def remove_backend_tls(request: GatewayRequest, io: PassIo) -> None:
    """Delete both objects, whichever version of the API served the policy."""
    for version in BACKEND_TLS_VERSIONS:
        io.kube.delete_object(
            f"{BACKEND_TLS_GROUP}/{version}", BACKEND_TLS_PLURAL, request.namespace, backend_tls_name(request.release)
        )
    io.kube.delete_object("v1", "configmaps", request.namespace, backend_ca_name(request.release))
