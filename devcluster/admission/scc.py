"""OpenShift SecurityContextConstraints admission for pod creates, and namespace range allocation.

Follows openshift/apiserver-library-go sccadmission/admission.go (computeSecurityContext) and
scc_authz_check.go: the SCCs in the store, sorted (priority, restrictiveness, name), are tried in turn; one
the requester or the pod's ServiceAccount may not `use` (its users/groups fields or RBAC) adds
`provider "<name>": Forbidden: not usable by user or serviceaccount`; the first under which the defaulted
pod validates is chosen, its defaults kept and the pod annotated `openshift.io/scc`. Otherwise the pod is
refused with every provider's errors.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from devcluster import errors
from devcluster.admission import rbac
from devcluster.admission.ranges import (
    MCS_ANNOTATION,
    SUPPLEMENTAL_GROUPS_ANNOTATION,
    UID_RANGE_ANNOTATION,
    allocate,
    mcs_level,
)
from devcluster.admission.requester import Requester, service_account
from devcluster.admission.scc_provider import FieldError, Provider, aggregate, assign, provider_for, sort_key

if TYPE_CHECKING:
    from devcluster.store import Store

__all__ = ["SCC_KEY", "VALIDATED_SCC_ANNOTATION", "admit_pod", "allocate_namespace_ranges", "choose"]

SCC_KEY = ("security.openshift.io", "securitycontextconstraints")
NAMESPACE_KEY = ("", "namespaces")
VALIDATED_SCC_ANNOTATION = "openshift.io/scc"
SUBJECT_TYPE_ANNOTATION = "security.openshift.io/validated-scc-subject-type"


def allocate_namespace_ranges(store: Store, namespace: dict[str, Any]) -> None:
    """Give a new namespace the lowest free UID block, its MCS level and supplemental groups, unless it
    already carries a UID range (as namespace-security-allocation-controller)."""
    annotations = namespace["metadata"].setdefault("annotations", {})
    if annotations.get(UID_RANGE_ANNOTATION):
        return
    used = [(ns["metadata"].get("annotations") or {}).get(UID_RANGE_ANNOTATION, "") for ns in store.list(NAMESPACE_KEY)]
    block = allocate(used)
    annotations[UID_RANGE_ANNOTATION] = str(block)
    annotations[SUPPLEMENTAL_GROUPS_ANNOTATION] = str(block)
    annotations.setdefault(MCS_ANNOTATION, mcs_level(block))


def _usable(store: Store, scc: dict[str, Any], who: Requester, namespace: str) -> bool:
    """ConstraintAppliesTo: listed in the SCC's users or groups, or allowed to `use` it by RBAC."""
    if who.username in (scc.get("users") or []) or set(who.groups) & set(scc.get("groups") or []):
        return True
    return rbac.is_allowed(store, who, "use", SCC_KEY[0], SCC_KEY[1], scc["metadata"]["name"], namespace)


def choose(
    providers: list[Provider], usable_by: dict[str, str], pod: dict[str, Any]
) -> tuple[dict[str, Any] | None, str, list[FieldError]]:
    """The mutated pod and the chosen provider's name, or None and every provider's errors.
    `usable_by` maps an SCC name to "user" or "serviceaccount" (absent: not usable)."""
    failures: list[FieldError] = []
    denied = set()
    for provider in providers:
        if provider.name not in usable_by:
            denied.add(provider.name)
            failures.append(
                FieldError(f'provider "{provider.name}"', "Forbidden", detail="not usable by user or serviceaccount")
            )
            continue
        admitted, errs = assign(provider, pod)
        if admitted is not None:
            annotations = admitted["metadata"].setdefault("annotations", {})
            annotations[VALIDATED_SCC_ANNOTATION] = provider.name
            annotations[SUBJECT_TYPE_ANNOTATION] = usable_by[provider.name]
            return admitted, provider.name, []
        failures.extend(errs)
    by_name = {p.name: p for p in providers}
    if "restricted-v2" in by_name and "restricted" in denied and assign(by_name["restricted"], pod)[0] is not None:
        failures.append(
            FieldError(
                "no access to scc/restricted",
                "Forbidden",
                detail="the pod fails to validate against the `restricted-v2` security context constraint, "
                "but would validate successfully against the `restricted` security context constraint",
            )
        )
    return None, "", failures


def admit_pod(store: Store, namespace: dict[str, Any], name: str, pod: dict[str, Any], requester: Requester) -> None:
    """Mutate `pod` in place under the first SCC it validates against, or refuse it (403)."""
    if ((pod.get("spec") or {}).get("os") or {}).get("name") == "windows":
        return
    ns_name = namespace["metadata"]["name"]
    sccs = sorted(store.list(SCC_KEY), key=sort_key)
    if not sccs:
        raise errors.forbidden(f'pods "{name}" is forbidden: no SecurityContextConstraints found in cluster')
    try:
        providers = [provider_for(scc, namespace) for scc in sccs]
    except ValueError as exc:
        raise errors.forbidden(f'pods "{name}" is forbidden: {exc}') from None
    account = (pod.get("spec") or {}).get("serviceAccountName", "")
    usable_by = {}
    for scc in sccs:
        scc_name = scc["metadata"]["name"]
        if account and _usable(store, scc, service_account(ns_name, account), ns_name):
            usable_by[scc_name] = "serviceaccount"
        elif _usable(store, scc, requester, ns_name):
            usable_by[scc_name] = "user"
    admitted, _, failures = choose(providers, usable_by, pod)
    if admitted is None:
        raise errors.forbidden(
            f'pods "{name}" is forbidden: unable to validate against any security context constraint: '
            f"{aggregate(failures)}"
        )
    pod.clear()
    pod.update(admitted)
