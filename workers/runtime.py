"""Per-worker-process singletons built from settings: the helm runner, and gateway charts loaded once each."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from django.conf import settings

from controlplane.metrics import count_helm
from workers.drivers.helm import Helm, HelmConfig
from workers.reconcile.gateway.request import Chart

__all__ = ["chart", "gateway_chart", "helm"]


@cache
def helm() -> Helm:
    home = Path(settings.HELM_HOME)
    return Helm(
        HelmConfig(
            binary=Path(settings.HELM_BINARY),
            timeout_seconds=float(settings.HELM_TIMEOUT_SECONDS),
            cache_home=home / "cache",
            config_home=home / "config",
            data_home=home / "data",
            on_invoke=count_helm,
        )
    )


@cache
def chart(ref: str, version: str | None) -> Chart:
    """Load a chart once per worker: pull a remote one into the helm cache (HELM_HOME/charts), read its defaults.

    An `oci://` chart is pulled once per worker start and reference; every pass uses the pulled archive.
    A failure is not cached: the next call tries again.
    """
    if ref.startswith("oci://"):
        # One directory per reference and version, so the archive found there is this chart's.
        key = hashlib.sha256(f"{ref} {version or ''}".encode()).hexdigest()[:16]
        ref = str(helm().pull(ref, Path(settings.HELM_HOME) / "charts" / key, version=version))
        version = None
    meta = helm().show_chart(ref, version=version)
    defaults = helm().show_values(ref, version=version)
    return Chart(ref=ref, version=version, chart_version=str(meta.get("version", "")), defaults=defaults)


def gateway_chart() -> Chart:
    """The bootstrap chart of the settings (GATEWAY_CHART, GATEWAY_CHART_VERSION)."""
    return chart(settings.GATEWAY_CHART, settings.GATEWAY_CHART_VERSION or None)
