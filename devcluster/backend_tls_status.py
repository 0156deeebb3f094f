"""The BackendTLSPolicy status a Gateway API controller (Envoy Gateway) writes (GEP-1897, GEP-713).

Its ancestors are the Gateways that the routes sending traffic to a targeted Service attach to (their
parentRefs); a policy no route reaches has none. For each, Accepted is True once every target Service exists,
its CA ConfigMaps hold a `ca.crt`, and no older policy targets the same Service; else False, with reason
TargetNotFound, NoValidCACertificate or Conflicted (the oldest policy wins, then the first by name). ResolvedRefs
says whether every CA ConfigMap was found. Only routes of the policy's own namespace are read.
"""

from __future__ import annotations

from typing import Any

from devcluster.meta import now
from devcluster.store import Store

__all__ = ["BACKEND_TLS_POLICIES", "ROUTES", "backend_tls_policy_status"]

GATEWAY_GROUP = "gateway.networking.k8s.io"
BACKEND_TLS_POLICIES = (GATEWAY_GROUP, "backendtlspolicies")
ROUTES = ((GATEWAY_GROUP, "grpcroutes"), (GATEWAY_GROUP, "httproutes"))
CONFIGMAPS, SERVICES = ("", "configmaps"), ("", "services")
CONTROLLER_NAME = "devcluster.local/gateway-controller"
Verdict = tuple[bool, str, str]  # (status, reason, message)


def _services(policy: dict[str, Any]) -> list[str]:
    refs = (policy.get("spec") or {}).get("targetRefs") or []
    return [ref.get("name", "") for ref in refs if ref.get("kind") == "Service" and not ref.get("group")]


def _age(obj: dict[str, Any]) -> tuple[str, str]:
    meta = obj["metadata"]
    return meta.get("creationTimestamp", ""), meta["name"]


def _older_rival(policy: dict[str, Any], store: Store) -> tuple[str, str] | None:
    """(older policy, Service) when an older policy of the namespace targets one of the same Services."""
    namespace, services = policy["metadata"].get("namespace", ""), set(_services(policy))
    for other in store.snapshot(BACKEND_TLS_POLICIES).page(namespace, None).items:
        if other["metadata"]["name"] == policy["metadata"]["name"] or other["metadata"].get("deletionTimestamp"):
            continue
        shared = sorted(services.intersection(_services(other)))
        if shared and _age(other) < _age(policy):
            return other["metadata"]["name"], shared[0]
    return None


def _ancestors(namespace: str, services: list[str], store: Store) -> list[dict[str, Any]]:
    """The Gateways of the namespace's routes with a backendRef to one of ``services``, once each, in order."""
    found: list[dict[str, Any]] = []
    for key in ROUTES:
        for route in store.snapshot(key).page(namespace, None).items:
            spec = route.get("spec") or {}
            backends = {
                ref.get("name")
                for rule in spec.get("rules") or []
                for ref in rule.get("backendRefs") or []
                if ref.get("kind", "Service") == "Service" and ref.get("namespace", namespace) == namespace
            }
            if not backends.intersection(services):
                continue
            for parent in spec.get("parentRefs") or []:
                if parent.get("kind", "Gateway") != "Gateway" or parent.get("group", GATEWAY_GROUP) != GATEWAY_GROUP:
                    continue
                ref = {
                    "group": GATEWAY_GROUP,
                    "kind": "Gateway",
                    "namespace": parent.get("namespace", namespace),
                    "name": parent.get("name", ""),
                }
                if parent.get("sectionName"):
                    ref["sectionName"] = parent["sectionName"]
                if ref not in found:
                    found.append(ref)
    return found


def _verdicts(policy: dict[str, Any], store: Store) -> tuple[Verdict, Verdict]:
    """Accepted and ResolvedRefs."""
    namespace, spec = policy["metadata"].get("namespace", ""), policy.get("spec") or {}
    services = _services(policy)
    missing = next((name for name in services if store.peek(SERVICES, namespace, name) is None), None)
    bad_ca = None
    for ref in (spec.get("validation") or {}).get("caCertificateRefs") or []:
        configmap = store.peek(CONFIGMAPS, namespace, ref.get("name", "")) if ref.get("kind") == "ConfigMap" else None
        if configmap is None or not (configmap.get("data") or {}).get("ca.crt", "").strip():
            bad_ca = ref.get("name", "")
            break
    rival = _older_rival(policy, store)
    if not services or missing is not None:
        accepted = (False, "TargetNotFound", f"Service {namespace}/{missing or ''} was not found")
    elif bad_ca is not None:
        accepted = (False, "NoValidCACertificate", "No valid CA certificate was found in caCertificateRefs")
    elif rival is not None:
        accepted = (
            False,
            "Conflicted",
            f"Service {namespace}/{rival[1]} is already targeted by the older BackendTLSPolicy {namespace}/{rival[0]}",
        )
    else:
        accepted = (True, "Accepted", "Policy has been accepted")
    resolved = (
        (False, "InvalidCACertificateRef", f"ConfigMap {namespace}/{bad_ca} with a ca.crt was not found")
        if bad_ca is not None
        else (True, "ResolvedRefs", "Resolved all the Object references")
    )
    return accepted, resolved


def backend_tls_policy_status(policy: dict[str, Any], store: Store) -> dict[str, Any]:
    stamp, generation = now(), int(policy["metadata"].get("generation", 1))
    conditions = [
        {
            "type": type_,
            "status": "True" if status else "False",
            "reason": reason,
            "message": message,
            "lastTransitionTime": stamp,
            "observedGeneration": generation,
        }
        for type_, (status, reason, message) in zip(("Accepted", "ResolvedRefs"), _verdicts(policy, store), strict=True)
    ]
    namespace = policy["metadata"].get("namespace", "")
    ancestors = _ancestors(namespace, _services(policy), store)
    return {
        "ancestors": [
            {"ancestorRef": ref, "controllerName": CONTROLLER_NAME, "conditions": conditions} for ref in ancestors
        ]
    }
