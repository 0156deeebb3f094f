"""Plan a gateway: read its cluster, render the chart for that cluster, and compare with the deployed release.

Nothing is written to the cluster. The chart is rendered client-side (``helm template``) with the
cluster's served API versions and Kubernetes version, so capability checks in the chart (such as the
Agent Sandbox preflight) behave as they would on install. ``run_plan`` is the database side (load the
plan row, save its result once); ``build_plan`` talks only to the cluster and the helm binary.
"""

from __future__ import annotations

import json
import logging
from dataclasses import replace
from typing import Any

import yaml
from django.utils import timezone

from cluster_vocabulary.kubernetes import NamespacePhase
from controlplane.capabilities import PROBED_RESOURCES
from controlplane.values_tree import deep_merge
from gateways.choices import PlanStatus
from gateways.models import Gateway, GatewayPlan
from gateways.plans import prune
from gateways.values import TRUSTED_CA_CONFIGMAP
from workers import breaker, releases, singletons
from workers.charts import Chart
from workers.drivers import errors
from workers.drivers.helm import Helm
from workers.drivers.kube import KubeClient
from workers.drivers.kubeconfig import kubeconfig_secrets
from workers.reconcile.gateway.observation.assess import assess
from workers.reconcile.gateway.observation.view import GatewayView, observe_gateway
from workers.reconcile.gateway.passes.request_from_rows import build_request
from workers.reconcile.gateway.plan.checks import ClusterObjects, prerequisite_checks
from workers.reconcile.gateway.plan.decide import decide
from workers.reconcile.gateway.plan.diff import ObjectDiff, field_changes, manifest_diff, parse_manifest
from workers.reconcile.gateway.plan.redact import Redactor
from workers.reconcile.gateway.prerequisites import scc_binding_name
from workers.reconcile.gateway.request import GatewayRequest

__all__ = ["build_plan", "plan_candidate", "redactor_for", "run_plan"]

log = logging.getLogger(__name__)


def run_plan(plan_id: str) -> None:
    """Compute one pending plan and save its result (or why it could not be computed); prune old plans."""
    plan = GatewayPlan.objects.select_related("cluster").filter(pk=plan_id, status=PlanStatus.PENDING).first()
    if plan is None:
        return
    gateway = _candidate(plan)
    redactor = redactor_for(gateway)
    result, status, error = None, PlanStatus.READY, ""
    try:
        result = plan_candidate(gateway, redactor)
    except errors.DriverError as exc:
        status, error = PlanStatus.FAILED, redactor.text(f"The cluster could not be read: {exc.message}")[:2000]
    except Exception:
        log.exception("plan %s failed", plan.pk)
        status, error = PlanStatus.FAILED, "Internal error while planning; it has been logged."
    GatewayPlan.objects.filter(pk=plan.pk).update(status=status, result=result, error=error, finished_at=timezone.now())
    log.info("plan %s for %s: %s %s", plan.pk, plan.name, status, (result or {}).get("action", ""))
    prune()


def redactor_for(gateway: Gateway) -> Redactor:
    """A redactor of the secrets a plan of ``gateway`` could show: its DB URI and its cluster's credentials."""
    return Redactor({gateway.database_uri or "", *kubeconfig_secrets(gateway.cluster.kubeconfig)})


def plan_candidate(gateway: Gateway, redactor: Redactor) -> dict[str, Any]:
    """The plan of ``gateway`` as it stands, unsaved changes included (nothing is written anywhere); raises
    ``DriverError`` when its cluster cannot be read."""
    cluster = gateway.cluster
    if breaker.is_open(cluster):
        raise errors.ClusterUnreachable(breaker.outage(cluster))
    chart, release = releases.load(gateway)
    request = build_request(gateway, chart, timezone.now(), release)
    with KubeClient(cluster.kubeconfig, budget=singletons.request_budget()) as kube:
        return build_plan(request, chart, singletons.helm(), kube, redactor)


def _candidate(plan: GatewayPlan) -> Gateway:
    """The gateway as the plan's spec would make it; unsaved, and never saved."""
    spec = json.loads(plan.spec)
    spec.pop("cluster_id", None)
    gateway = Gateway.objects.filter(pk=plan.gateway_id).first() if plan.gateway_id else None
    gateway = gateway or Gateway(owner_id=plan.owner_id)
    gateway.cluster = plan.cluster
    for key, value in spec.items():
        setattr(gateway, key, value)
    if gateway.spec_changed():  # as Gateway.save: a spec change is a fresh start
        gateway.failure_count = 0
    return gateway


def _read_cluster(kube: KubeClient, request: GatewayRequest) -> tuple[ClusterObjects, GatewayView, str | None]:
    """Discovery, the Kubernetes version, and what the gateway's namespace holds (reads only)."""
    served = frozenset(kube.served_api_versions())
    resources = frozenset(kube.served_resources(PROBED_RESOURCES))
    kube_version = kube.version().get("gitVersion")
    ns = request.namespace
    namespace = kube.get_namespace(ns)
    if namespace is None:
        objects = ClusterObjects(served_apis=served, served_resources=resources, namespace_phase=None)
        return objects, GatewayView(release=None), kube_version
    ours = ",".join(f"{key}={value}" for key, value in request.namespace_labels.items())
    objects = ClusterObjects(
        served_apis=served,
        served_resources=resources,
        namespace_phase=(namespace.get("status") or {}).get("phase", NamespacePhase.ACTIVE),
        secrets=frozenset(s["metadata"]["name"] for s in kube.list_objects("v1", "secrets", ns, ours)),
        configmaps={c["metadata"]["name"]: c.get("data") or {} for c in kube.list_objects("v1", "configmaps", ns)},
        rolebindings=frozenset(
            b["metadata"]["name"] for b in kube.list_objects("rbac.authorization.k8s.io/v1", "rolebindings", ns, ours)
        ),
    )
    # The decision needs the release and the workloads, not the routes (whose API may not even be served).
    return objects, observe_gateway(kube, replace(request, values=None)), kube_version


def _render(
    request: GatewayRequest, chart: Chart, helm: Helm, served: frozenset[str], kube_version: str | None
) -> tuple[dict[Any, dict[str, Any]] | None, str | None]:
    """The chart's objects for the desired values on this cluster, or why it does not render."""
    if request.values is None:
        return None, None
    try:
        manifest = helm.template(
            request.release,
            request.namespace,
            chart.ref,
            request.values,
            version=chart.version,
            api_versions=sorted(served),
            kube_version=kube_version,
        )
        return parse_manifest(manifest), None
    except errors.DriverError as exc:
        return None, f"The chart does not render: {exc.message}"
    except yaml.YAMLError as exc:
        return None, f"The chart renders a manifest that is not YAML: {exc}"


def build_plan(
    request: GatewayRequest, chart: Chart, helm: Helm, kube: KubeClient, redactor: Redactor
) -> dict[str, Any]:
    """The plan as JSON: the action, the values diff, the per-object diff and the prerequisite checks."""
    objects, view, kube_version = _read_cluster(kube, request)
    values = deep_merge(chart.defaults, request.values or {})
    checks = prerequisite_checks(
        request, values, objects, ca_configmap=TRUSTED_CA_CONFIGMAP, scc_binding=scc_binding_name(request.release)
    )
    rendered, render_error = _render(request, chart, helm, objects.served_apis, kube_version)
    release = view.release
    blockers = [
        message
        for message in (request.values_error, request.chart_unavailable, request.release_unverified, render_error)
        if message
    ]
    blockers += [check.message for check in checks if check.blocking]
    if request.deleting:
        blockers.insert(0, "The gateway is being deleted: the reconciler uninstalls it.")
    decision = decide(
        assess(request, view, chart.chart_version),
        blockers=blockers,
        suspended=request.suspended,
        retries_exhausted=request.timing.retry.exhausted(request.failure_count),
    )
    deployed_values = redactor.tree(release.values) if release else {}
    object_diffs: list[ObjectDiff] = []
    unchanged = 0
    if rendered is not None:
        deployed = parse_manifest(release.manifest) if release else {}
        object_diffs, unchanged = manifest_diff(
            {key: redactor.manifest_object(obj) for key, obj in deployed.items()},
            {key: redactor.manifest_object(obj) for key, obj in rendered.items()},
        )
    plan = {
        "action": decision.action.value,
        "reasons": decision.reasons,
        "namespace": request.namespace,
        "release": None
        if release is None
        else {
            "name": release.status.name,
            "revision": release.status.revision,
            "status": release.status.status,
            "chart_version": release.status.chart_version,
        },
        "chart_version": chart.chart_version,
        "kubernetes_version": kube_version,
        "values_diff": [change.as_dict() for change in field_changes(deployed_values, redactor.tree(request.values))]
        if request.values is not None
        else [],
        "objects": [diff.as_dict() for diff in object_diffs],
        "unchanged_objects": unchanged,
        "prerequisites": [check.as_dict() for check in checks],
        "render_error": render_error,
    }
    return redactor.tree(plan)
