"""The driver handles one pass uses, bundled so actions take a single argument."""

from __future__ import annotations

from dataclasses import dataclass

from workers.drivers.helm import Helm, HelmTarget
from workers.drivers.kube import KubeClient
from workers.reconcile.gateway.request import Chart

__all__ = ["PassIo"]

SCC_CLUSTER_ROLE = "system:openshift:scc:privileged"


@dataclass(frozen=True)
class PassIo:
    helm: Helm
    kube: KubeClient
    target: HelmTarget
    chart: Chart
