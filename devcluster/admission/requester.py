"""Who sends a request: the identities admission and RBAC reason about."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ADMIN", "SERVICE_ACCOUNT_PREFIX", "Requester", "controller", "service_account"]

SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:"


@dataclass(frozen=True)
class Requester:
    """Who sends a create: the kubeconfig's user (cluster-admin), or a controller's ServiceAccount."""

    username: str
    groups: tuple[str, ...] = ()


ADMIN = Requester("devcluster-admin", ("system:masters", "system:authenticated"))


def service_account(namespace: str, name: str) -> Requester:
    """A ServiceAccount as the token authenticator presents it (k8s.io/apiserver serviceaccount.UserInfo)."""
    return Requester(
        f"{SERVICE_ACCOUNT_PREFIX}{namespace}:{name}",
        ("system:serviceaccounts", f"system:serviceaccounts:{namespace}", "system:authenticated"),
    )


def controller(name: str) -> Requester:
    """A kube-controller-manager controller, as it authenticates (`--use-service-account-credentials`)."""
    return service_account("kube-system", name)
