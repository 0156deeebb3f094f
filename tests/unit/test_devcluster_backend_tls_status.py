"""devcluster writes BackendTLSPolicy status as Envoy Gateway does: the Gateways of the routes that reach the
Service are the ancestors, and the older of two policies on one Service wins (the newer is Conflicted)."""

from __future__ import annotations

from typing import Any

import pytest

from devcluster.backend_tls_status import BACKEND_TLS_POLICIES, backend_tls_policy_status
from devcluster.store import Store

NS = "gw-edge"
GATEWAY = {"group": "gateway.networking.k8s.io", "kind": "Gateway", "namespace": "infra", "name": "edge"}


def policy(name: str, created: str, service: str = "svc") -> dict[str, Any]:
    return {
        "metadata": {"name": name, "namespace": NS, "creationTimestamp": created, "generation": 2},
        "spec": {
            "targetRefs": [{"group": "", "kind": "Service", "name": service}],
            "validation": {
                "caCertificateRefs": [{"group": "", "kind": "ConfigMap", "name": "ca"}],
                "hostname": "svc.gw-edge.svc",
            },
        },
    }


@pytest.fixture
def store() -> Store:
    """A namespace with the Service, its CA ConfigMap and a GRPCRoute to it attached to Gateway infra/edge."""
    store = Store()
    store.save(("", "services"), {"metadata": {"name": "svc", "namespace": NS}})
    store.save(("", "services"), {"metadata": {"name": "other", "namespace": NS}})
    store.save(("", "configmaps"), {"metadata": {"name": "ca", "namespace": NS}, "data": {"ca.crt": "PEM"}})
    route = {
        "metadata": {"name": "r", "namespace": NS},
        "spec": {
            "parentRefs": [{"name": "edge", "namespace": "infra"}],
            "rules": [{"backendRefs": [{"name": "svc", "port": 8080}]}],
        },
    }
    store.save(("gateway.networking.k8s.io", "grpcroutes"), route)
    return store


def verdicts(status: dict[str, Any]) -> list[tuple[dict, dict[str, tuple[str, str]]]]:
    return [
        (a["ancestorRef"], {c["type"]: (c["status"], c["reason"]) for c in a["conditions"]})
        for a in status["ancestors"]
    ]


def test_the_ancestor_is_the_gateway_the_route_attaches_to(store: Store) -> None:
    status = backend_tls_policy_status(policy("p", "2026-01-01T00:00:00Z"), store)
    assert verdicts(status) == [(GATEWAY, {"Accepted": ("True", "Accepted"), "ResolvedRefs": ("True", "ResolvedRefs")})]
    assert {c["observedGeneration"] for c in status["ancestors"][0]["conditions"]} == {2}


def test_a_service_no_route_reaches_has_no_ancestor(store: Store) -> None:
    assert backend_tls_policy_status(policy("p", "2026-01-01T00:00:00Z", service="other"), store) == {"ancestors": []}


def test_the_newer_of_two_policies_on_one_service_is_conflicted(store: Store) -> None:
    older, newer = policy("z-older", "2026-01-01T00:00:00Z"), policy("a-newer", "2026-01-02T00:00:00Z")
    for obj in (older, newer):
        store.save(BACKEND_TLS_POLICIES, obj)
    assert verdicts(backend_tls_policy_status(older, store))[0][1]["Accepted"] == ("True", "Accepted")
    ((_, conditions),) = verdicts(backend_tls_policy_status(newer, store))
    assert conditions["Accepted"] == ("False", "Conflicted")
    message = backend_tls_policy_status(newer, store)["ancestors"][0]["conditions"][0]["message"]
    assert "BackendTLSPolicy gw-edge/z-older" in message
    store.remove(BACKEND_TLS_POLICIES, NS, "z-older")
    assert verdicts(backend_tls_policy_status(newer, store))[0][1]["Accepted"] == ("True", "Accepted")


def test_a_missing_ca_is_refused_and_unresolved(store: Store) -> None:
    store.remove(("", "configmaps"), NS, "ca")
    ((_, conditions),) = verdicts(backend_tls_policy_status(policy("p", "2026-01-01T00:00:00Z"), store))
    assert conditions == {
        "Accepted": ("False", "NoValidCACertificate"),
        "ResolvedRefs": ("False", "InvalidCACertificateRef"),
    }
