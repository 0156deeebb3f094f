"""The driver handles one pass uses, bundled so actions take a single argument."""

from __future__ import annotations

from dataclasses import dataclass

from workers.charts import Chart
from workers.drivers.helm import Helm, HelmTarget
from workers.drivers.kube import KubeClient

__all__ = ["PassIo"]


@dataclass(frozen=True)
class PassIo:
    helm: Helm
    kube: KubeClient
    target: HelmTarget
    chart: Chart
