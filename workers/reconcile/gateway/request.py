"""What a gateway pass is asked to do: the ``GatewayRequest`` and its parts, as plain immutable data (no Django,
no I/O)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from controlplane.maintenance_windows import Verdict
from workers.reconcile.retry import RetryPolicy

__all__ = ["POD_SECURITY_ENFORCE", "DriftMode", "GatewayRequest", "Prerequisites", "Timing"]

POD_SECURITY_ENFORCE = "pod-security.kubernetes.io/enforce"


class DriftMode(enum.Enum):
    """GATEWAY_DRIFT_DETECTION: repair drift by upgrading, only report it, or do not compare at all."""

    ENABLED = "enabled"
    WARN = "warn"
    DISABLED = "disabled"


@dataclass(frozen=True)
class Prerequisites:
    """Objects that must exist before Helm runs. ``None`` means: must not exist.

    The CA bundle ConfigMap holds ``trusted_ca`` (the cluster's) followed by the ``ca.crt`` of the
    tenant's own ConfigMap ``oidc_ca_configmap`` in the namespace; it exists when either is set.
    """

    db_secret_name: str
    db_uri: str | None = field(repr=False)
    trusted_ca: str | None = field(repr=False)
    scc_binding: bool
    sandbox_service_account: str
    oidc_ca_configmap: str | None = None


@dataclass(frozen=True)
class Timing:
    retry: RetryPolicy
    pending_timeout: timedelta
    ready_grace: timedelta
    poll_interval: timedelta
    # Failed uninstalls after which a delete removes what the release left without Helm.
    delete_max_failures: int = 5


@dataclass(frozen=True)
class GatewayRequest:
    gateway_id: str
    generation: int
    namespace: str
    release: str
    namespace_labels: dict[str, str]
    prerequisites: Prerequisites
    values: dict[str, Any] | None
    values_error: str | None
    route_host: str | None
    deleting: bool
    suspended: bool
    failure_count: int
    next_attempt_at: datetime | None
    was_running: bool
    now: datetime
    timing: Timing
    # Why the cluster's trusted CA cannot be mounted by the chart (None: mounted, or there is none).
    trusted_ca_unmounted: str | None = None
    drift_detection: DriftMode = DriftMode.ENABLED
    # The message of the gateway's current Drifted=True condition: drift already reported (None: none).
    drift_reported: str | None = None
    # APIs the values need that the cluster's last probe found unserved (empty: none, or not probed yet).
    missing_apis: tuple[str, ...] = ()
    # The chart release the values were built for (None: built without one, as in tests and previews).
    release_id: str | None = None
    # The server certificate Secret behind a Gateway API route: TLS to the pod needs a BackendTLSPolicy from it
    # (None: no GRPCRoute, or the chart serves plaintext).
    backend_tls_secret: str | None = None
    # The cluster serves the Gateway API: a pass checks for route-owned objects to remove even without a route.
    gateway_api: bool = False
    # The Pod Security level the namespace enforces (label pod-security.kubernetes.io/enforce); None: no label.
    pod_security: str | None = None
    # Why the release's chart cannot be pulled now, and when the worker tries again (None: the chart is loaded).
    chart_unavailable: str | None = None
    chart_retry_at: datetime | None = None
    # The gateway's ImagePolicy condition (status, reason, message); None: it overrides no image and never did.
    image_policy: tuple[str, str, str] | None = None
    # Why its release may not be run now (keys changed, not verified again): no helm call, what runs keeps running.
    release_unverified: str | None = None
    # The gateway's Verified condition (status, reason, message); None: its release has no signature policy.
    release_verified: tuple[str, str, str] | None = None
    # A live cluster watcher holds the cluster: it wakes a pass when a release's workloads change, so waiting
    # for them needs no polling (False: poll every GATEWAY_POLL_SECONDS while Provisioning).
    watched: bool = False
    # A platform admin asked to delete whatever helm uninstall says.
    force_deletion: bool = False
    # The cluster's maintenance window now (see window_gate); None: the cluster has none and the gateway never
    # waited for one. ``window_holds_all``: installs and deletes wait for it too.
    window: Verdict | None = None
    window_holds_all: bool = False

    @property
    def namespace_object_labels(self) -> dict[str, str]:
        """The namespace's labels: ours, and the Pod Security level when one is set."""
        if self.pod_security is None:
            return dict(self.namespace_labels)
        return {**self.namespace_labels, POD_SECURITY_ENFORCE: self.pod_security}
