"""Worker start-up checks: refuse to start on configuration that could only fail later, with a clear message.

A remote chart that cannot be pulled is not such a problem: the registry may be down for a while. The worker
starts, says so, and the releases on that chart wait (ChartUnavailable) while catalogs and other releases go on.
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path
from typing import Any

from celery.signals import worker_init
from django.conf import settings

from controlplane.flavours import Flavour
from gateways.chart_keys import type_mismatches, unknown_keys
from gateways.chart_source import chart_source_problem
from gateways.values import ClusterFacts, GatewaySpec, gateway_values, routing_problems
from workers import singletons
from workers.charts import Chart
from workers.drivers.errors import DriverError
from workers.routing import routing_config

__all__ = ["MAXIMAL_SPEC", "check_configuration", "cluster_shapes"]

log = logging.getLogger(__name__)

# The richest spec, so that every key the mapping can ever set is checked against the chart.
MAXIMAL_SPEC = GatewaySpec(
    namespace="gw-check-00000000",
    release="check",
    image="example.test/gw:1",
    supervisor_image="example.test/sv:1",
    route_host="check.example.test",
    oidc_issuer="https://issuer.example.test",
    oidc_audience="a",
    oidc_roles_claim="roles",
    oidc_admin_role="admin",
    oidc_user_role="user",
    oidc_ca_configmap="oidc-ca",
    has_external_db=True,
)


def cluster_shapes() -> list[ClusterFacts]:
    return [
        ClusterFacts(flavour=Flavour.KUBERNETES, base_domain="example.test", gateway_api=True, has_trusted_ca=True),
        ClusterFacts(flavour=Flavour.OPENSHIFT, base_domain="example.test", gateway_api=False, has_trusted_ca=True),
    ]


def check_configuration() -> list[str]:
    """Every problem found, as messages naming the setting to fix; empty when the worker may start."""
    binary = Path(settings.HELM_BINARY)
    if not binary.is_file() and not shutil.which(str(binary)):
        return [f"HELM_BINARY: {binary} does not exist. Fix: run `make setup` or point HELM_BINARY at helm v4."]
    unpinned = chart_source_problem(settings.GATEWAY_CHART, settings.GATEWAY_CHART_VERSION)
    if unpinned:
        return [unpinned]
    try:
        chart: Chart | None = singletons.gateway_chart()
    except singletons.ChartUnavailable as exc:
        log.warning("GATEWAY_CHART: %s; its releases wait and the pull is retried from %s", exc, exc.retry_at)
        chart = None
    except DriverError as exc:
        return [f"GATEWAY_CHART: cannot load {settings.GATEWAY_CHART!r}: {exc}"]
    problems: list[str] = []
    routing = routing_config()
    for facts in cluster_shapes():
        if facts.flavour == Flavour.OPENSHIFT and not _has_openshift_without_gateway_api():
            continue
        problems += [f"{facts.flavour} clusters: {p} (see GATEWAY_*)" for p in routing_problems(facts, routing)]
        if not problems and chart is not None:
            values = gateway_values(MAXIMAL_SPEC, facts, routing)
            bad = unknown_keys(values, chart.defaults)
            problems += [f"GATEWAY_CHART: the chart has no values key {p!r}" for p in bad]
            problems += [f"GATEWAY_CHART: wrong type for {p}" for p in type_mismatches(values, chart.defaults)]
    return problems


def _has_openshift_without_gateway_api() -> bool:
    from controlplane.models import ManagedCluster

    return ManagedCluster.objects.filter(flavour=Flavour.OPENSHIFT, gateway_api=False).exists()


@worker_init.connect
def _refuse_bad_configuration(**_: Any) -> None:
    problems = check_configuration()
    if problems:
        # Celery swallows exceptions from signal handlers; SystemExit is the one that stops the worker.
        raise SystemExit("The worker cannot start:\n  - " + "\n  - ".join(problems))
    log.info("worker configuration checked: chart %s", settings.GATEWAY_CHART)
