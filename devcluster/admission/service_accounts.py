"""ServiceAccount admission for pod creates (kubernetes plugin/pkg/admission/serviceaccount/admission.go).

`spec.serviceAccountName` defaults to `default`, and the ServiceAccount must exist in the pod's namespace.
The token volume the real plugin mounts is not added.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from devcluster import errors

if TYPE_CHECKING:
    from devcluster.store import Store

__all__ = ["DEFAULT_SERVICE_ACCOUNT", "admit_pod"]

DEFAULT_SERVICE_ACCOUNT = "default"
SERVICE_ACCOUNT_KEY = ("", "serviceaccounts")


def admit_pod(store: Store, namespace: str, name: str, pod: dict[str, Any]) -> None:
    """Default the pod's ServiceAccount; refuse (403) the pod when that ServiceAccount does not exist."""
    spec = pod.setdefault("spec", {})
    account = spec.get("serviceAccountName") or spec.get("serviceAccount") or DEFAULT_SERVICE_ACCOUNT
    spec["serviceAccountName"] = account
    if store.get(SERVICE_ACCOUNT_KEY, namespace, account) is None:
        raise errors.forbidden(
            f'pods "{name}" is forbidden: error looking up service account {namespace}/{account}: '
            f'serviceaccount "{account}" not found'
        )
