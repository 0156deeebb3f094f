"""Build a ``GatewayRequest`` from the database rows and the worker settings."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings

from cluster_vocabulary.kubernetes import ConditionStatus
from controlplane.flavours import Flavour
from controlplane.maintenance_windows import Verdict
from controlplane.values_tree import deep_merge, value_at
from gateways.chart_keys import UnknownValuesKeys, check_values_keys
from gateways.choices import DatabaseProvider, Phase
from gateways.image_rules import policy_condition
from gateways.models import Gateway
from gateways.spec_rules import check_spec
from gateways.states import ConditionType
from gateways.values import (
    ClusterFacts,
    GatewaySpec,
    ValuesError,
    db_secret_name,
    gateway_values,
    route_host,
    sandbox_service_account,
    trusted_ca_unmounted,
)
from rollouts.states import TargetState
from workers.charts import Chart, ReleaseInputs
from workers.reconcile.gateway.observation.required_apis import missing_apis
from workers.reconcile.gateway.request import DriftMode, GatewayRequest, Prerequisites, Timing
from workers.reconcile.retry import RetryPolicy
from workers.routing import routing_config

__all__ = ["MANAGED_BY", "backend_tls_secret", "build_request", "timing", "window_verdict"]

MANAGED_BY = "controlplane"


def timing() -> Timing:
    return Timing(
        retry=RetryPolicy(
            base=timedelta(seconds=settings.GATEWAY_RETRY_BASE_SECONDS),
            cap=timedelta(seconds=settings.GATEWAY_RETRY_CAP_SECONDS),
            max_failures=settings.GATEWAY_MAX_FAILURES,
        ),
        pending_timeout=timedelta(seconds=settings.GATEWAY_PENDING_TIMEOUT_SECONDS),
        ready_grace=timedelta(seconds=settings.GATEWAY_READY_GRACE_SECONDS),
        poll_interval=timedelta(seconds=settings.GATEWAY_POLL_SECONDS),
        delete_max_failures=settings.GATEWAY_DELETE_MAX_FAILURES,
    )


def _value(values: dict[str, Any], defaults: dict[str, Any], *path: str) -> object:
    """A values key as Helm will see it: the value set, else the chart's default (None when neither has it)."""
    for tree in (values, defaults):
        node = value_at(tree, path)
        if node is not None:
            return node
    return None


def backend_tls_secret(values: dict[str, Any] | None, defaults: dict[str, Any]) -> str | None:
    """The server certificate Secret a GRPCRoute's backend serves with; None without a route or without TLS."""
    if not values or not _value(values, defaults, "grpcRoute", "enabled"):
        return None
    if _value(values, defaults, "server", "disableTls"):
        return None
    secret = _value(values, defaults, "server", "tls", "certSecretName")
    return str(secret) if secret else None


def pod_security(gateway: Gateway) -> str | None:
    """The Pod Security level a gateway's namespace enforces (GATEWAY_POD_SECURITY); None on OpenShift or `none`."""
    if gateway.cluster.flavour == Flavour.OPENSHIFT or settings.GATEWAY_POD_SECURITY == "none":
        return None
    return str(settings.GATEWAY_POD_SECURITY)


def _drift_reported(gateway: Gateway) -> str | None:
    for condition in gateway.conditions or []:
        if condition.get("type") == ConditionType.DRIFTED and condition.get("status") == ConditionStatus.TRUE:
            return str(condition.get("message", ""))
    return None


def window_verdict(gateway: Gateway, now: datetime) -> tuple[Verdict | None, bool]:
    """The cluster's maintenance window for this gateway's pass, and whether it holds installs and deletes too.
    None when the cluster has no windows, freezes or override and the gateway never waited. A gateway that a
    rollout wave started inside its window finishes even after the window closed."""
    cluster = gateway.cluster
    schedule = cluster.maintenance_schedule()
    shown = any(c.get("type") == ConditionType.MAINTENANCE_WINDOW for c in gateway.conditions or [])
    if schedule.empty and cluster.window_override_until is None and not shown:
        return None, False
    window = cluster.window_verdict(now)
    moving = gateway.release_id != gateway.deployed_release_id  # (a rollout's start moves the release first)
    if not window.open and moving and gateway.rollout_targets.filter(state=TargetState.UPGRADING).exists():
        window = Verdict(True, now, message="A rollout wave started this change inside a maintenance window")
    return window, schedule.hold_installs_and_deletes


def build_request(
    gateway: Gateway, chart: Chart, now: datetime, release: ReleaseInputs | None = None
) -> GatewayRequest:
    """The pass's inputs; with ``release``, its values overrides are merged under the spec's values."""
    cluster = gateway.cluster
    spec = GatewaySpec.from_gateway(gateway, images=gateway.desired_images())
    facts = ClusterFacts.from_cluster(cluster)
    values, values_error, host = None, None, None
    unavailable = release.unavailable if release is not None else None
    unverified = release.unverified if release is not None else None
    try:
        if release is not None and release.problem:
            raise ValuesError(release.problem)
        if not (unavailable or unverified):  # else the chart is not loaded (or must not run): no values yet
            check_spec(spec, facts)
            values = deep_merge(release.overrides if release else {}, gateway_values(spec, facts, routing_config()))
            check_values_keys(values, chart.defaults)
            host = route_host(spec, facts)
    except (ValuesError, UnknownValuesKeys) as exc:
        values, values_error = None, str(exc)
    external_db = gateway.database_provider == DatabaseProvider.EXTERNAL
    window, window_holds_all = window_verdict(gateway, now)
    return GatewayRequest(
        gateway_id=str(gateway.pk),
        generation=gateway.generation,
        namespace=gateway.namespace,
        release=gateway.helm_release,
        namespace_labels={
            "app.kubernetes.io/managed-by": f"{MANAGED_BY}-control-plane",
            f"{MANAGED_BY}/managed": "true",
            f"{MANAGED_BY}/gateway-id": str(gateway.pk),
        },
        pod_security=pod_security(gateway),
        backend_tls_secret=backend_tls_secret(values, chart.defaults),
        gateway_api=bool(cluster.gateway_api),
        prerequisites=Prerequisites(
            db_secret_name=db_secret_name(gateway.helm_release),
            db_uri=gateway.database_uri if external_db else None,
            trusted_ca=cluster.trusted_ca_pem or None,
            scc_binding=cluster.flavour == Flavour.OPENSHIFT,
            sandbox_service_account=sandbox_service_account(gateway.helm_release),
            oidc_ca_configmap=gateway.oidc_ca_configmap or None,
        ),
        values=values,
        values_error=values_error,
        route_host=host,
        deleting=gateway.deletion_requested_at is not None,
        force_deletion=gateway.force_deletion,
        suspended=gateway.suspended,
        failure_count=gateway.failure_count,
        next_attempt_at=gateway.next_attempt_at,
        was_running=gateway.phase in (Phase.RUNNING, Phase.DEGRADED),
        now=now,
        timing=timing(),
        trusted_ca_unmounted=trusted_ca_unmounted(spec, facts),
        drift_detection=DriftMode(settings.GATEWAY_DRIFT_DETECTION),
        drift_reported=_drift_reported(gateway),
        missing_apis=tuple(missing_apis(values, chart.defaults, cluster.capabilities or {})) if values else (),
        release_id=release.release_id if release else None,
        chart_unavailable=unavailable,
        release_unverified=unverified,
        release_verified=release.verified if release else None,
        chart_retry_at=release.retry_at if release else None,
        image_policy=policy_condition(gateway),
        window=window,
        window_holds_all=window_holds_all,
        watched=bool(cluster.watcher_owner)
        and cluster.watcher_expires_at is not None
        and cluster.watcher_expires_at > now,
    )
