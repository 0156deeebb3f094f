"""Whether a gateway's BackendTLSPolicy and BackendCA ConfigMap are in step, from listed metadata alone (pure).

The fleet resync judges every gateway of a cluster from three cluster-wide listings: the policies, the
ConfigMaps labelled ``BACKEND_CA_LABEL`` and the metadata of the ``kubernetes.io/tls`` Secrets. Both objects
carry the resourceVersion of the server Secret they were made from; a Secret rotated since (by cert-manager, or
the chart's certgen hook) has another, and a pass writes them again from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from workers.reconcile.gateway.backend_tls.objects import SECRET_VERSION_ANNOTATION

__all__ = ["BackendTlsVerdict", "judge_backend_tls"]


class BackendTlsVerdict(StrEnum):
    IN_STEP = "InStep"
    MISSING = "Missing"  # wanted, and the policy or its ConfigMap is absent
    STALE = "Stale"  # the server Secret changed since they were written
    UNWANTED = "Unwanted"  # the route or TLS is off, and one of them is left


def _secret_version(obj: Mapping[str, Any]) -> str | None:
    return ((obj.get("metadata") or {}).get("annotations") or {}).get(SECRET_VERSION_ANNOTATION)


def judge_backend_tls(
    *, wanted: bool, secret_version: str | None, policy: Mapping[str, Any] | None, configmap: Mapping[str, Any] | None
) -> BackendTlsVerdict:
    """The verdict on both objects of one gateway. ``secret_version`` is the listed server Secret's
    resourceVersion; None (not listed) leaves the CA unjudged: the pass says what the gateway lacks."""
    present = [obj for obj in (policy, configmap) if obj is not None]
    if not wanted:
        return BackendTlsVerdict.UNWANTED if present else BackendTlsVerdict.IN_STEP
    if len(present) < 2:
        return BackendTlsVerdict.MISSING
    if secret_version is not None and any(_secret_version(obj) != secret_version for obj in present):
        return BackendTlsVerdict.STALE
    return BackendTlsVerdict.IN_STEP
