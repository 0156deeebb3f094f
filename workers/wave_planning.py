"""The cluster side of planning a rollout wave for approval: the gateway planner of ``/gateways/{id}/plan/``,
run on each gateway as the rollout would leave it, and a digest of what each cluster serves."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from controlplane.capabilities import PROBED_RESOURCES
from controlplane.models import ManagedCluster
from rollouts.approval import digest
from rollouts.models import Rollout, RolloutTarget
from workers import breaker, singletons
from workers.drivers import errors
from workers.drivers.kube import KubeClient
from workers.reconcile.gateway.plan.build import plan_candidate, redactor_for
from workers.reconcile.rollout.overrides import dropped_overrides

__all__ = ["ClusterWavePlanner"]


class ClusterWavePlanner:
    """Reads the clusters and renders the charts (a ``workers.reconcile.rollout.wave_gate.WavePlanner``)."""

    def api_versions(self, clusters: Iterable[ManagedCluster]) -> dict[str, str]:
        """Per cluster, a digest of the API versions and probed resources it serves, and its Kubernetes version."""
        found = {}
        for cluster in clusters:
            if breaker.is_open(cluster):  # as a plan: no waiting on a cluster known not to answer
                raise errors.ClusterUnreachable(breaker.outage(cluster))
            with KubeClient(cluster.kubeconfig, budget=singletons.request_budget()) as kube:
                found[cluster.name] = digest(
                    {
                        "apis": sorted(kube.served_api_versions()),
                        "resources": sorted(kube.served_resources(PROBED_RESOURCES)),
                        "server_version": kube.version().get("gitVersion"),
                    }
                )
        return found

    def plans(self, rollout: Rollout, targets: list[RolloutTarget]) -> dict[str, dict[str, Any]]:
        """Each gateway's plan on the target release, less the image overrides the rollout drops (never saved)."""
        plans = {}
        for target in targets:
            gateway = target.gateway
            if gateway is None:
                continue
            for field, value in dropped_overrides(gateway.pk, rollout.target_release_id).items():
                setattr(gateway, field, value)
            gateway.release = rollout.target_release
            plans[str(gateway.pk)] = plan_candidate(gateway, redactor_for(gateway))
        return plans
