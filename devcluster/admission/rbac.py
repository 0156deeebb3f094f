"""Just enough of the RBAC authorizer for admission's questions ("may this user `use` that SCC?").

Follows kubernetes plugin/pkg/auth/authorizer/rbac (rbac.go, subject_locator.go): `system:masters` is a
superuser; otherwise a ClusterRoleBinding, or a RoleBinding in the request's namespace, must bind one of
the user's identities (User name, Group, or ServiceAccount subject) to a Role/ClusterRole with a rule
matching verb, API group, resource and name (`*` wildcards; empty resourceNames match any name).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from devcluster.admission.requester import SERVICE_ACCOUNT_PREFIX, Requester

if TYPE_CHECKING:
    from devcluster.store import Store

__all__ = ["is_allowed", "rule_allows"]

RBAC = "rbac.authorization.k8s.io"


def _matches(values: list[str] | None, wanted: str) -> bool:
    return bool(values) and ("*" in values or wanted in values)


def rule_allows(rule: dict[str, Any], verb: str, group: str, resource: str, name: str) -> bool:
    """Whether one PolicyRule covers the request (RuleAllows)."""
    names = rule.get("resourceNames") or []
    return (
        _matches(rule.get("verbs"), verb)
        and _matches(rule.get("apiGroups"), group)
        and _matches(rule.get("resources"), resource)
        and (not names or name in names)
    )


def _binds(binding: dict[str, Any], requester: Requester) -> bool:
    """Whether a binding's subjects include the requester (appliesTo)."""
    for subject in binding.get("subjects") or []:
        kind, subject_name = subject.get("kind"), subject.get("name", "")
        if kind == "User" and subject_name == requester.username:
            return True
        if kind == "Group" and subject_name in requester.groups:
            return True
        if kind == "ServiceAccount":
            namespace = subject.get("namespace") or binding["metadata"].get("namespace", "")
            if requester.username == f"{SERVICE_ACCOUNT_PREFIX}{namespace}:{subject_name}":
                return True
    return False


def _role_rules(store: Store, binding: dict[str, Any]) -> list[dict[str, Any]]:
    ref = binding.get("roleRef") or {}
    if ref.get("kind") == "ClusterRole":
        role = store.get((RBAC, "clusterroles"), "", ref.get("name", ""))
    elif ref.get("kind") == "Role":
        role = store.get((RBAC, "roles"), binding["metadata"].get("namespace", ""), ref.get("name", ""))
    else:
        role = None
    return (role or {}).get("rules") or []


def is_allowed(
    store: Store, requester: Requester, verb: str, group: str, resource: str, name: str, namespace: str
) -> bool:
    """Whether RBAC lets `requester` perform `verb` on the named resource in `namespace`."""
    if "system:masters" in requester.groups:
        return True
    bindings = store.list((RBAC, "clusterrolebindings")) + store.list((RBAC, "rolebindings"), namespace)
    return any(
        rule_allows(rule, verb, group, resource, name)
        for binding in bindings
        if _binds(binding, requester)
        for rule in _role_rules(store, binding)
    )
