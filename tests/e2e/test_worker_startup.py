"""The worker refuses to start on inconsistent configuration, naming what to fix."""

from __future__ import annotations

import subprocess
import sys

import pytest

from controlplane.models import ManagedCluster
from tests.fixtures.stack import PROJECT_ROOT
from tests.helpers import KUBECONFIG

pytestmark = pytest.mark.e2e


def start_worker(env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "celery", "-A", "controlplane", "worker", "-l", "INFO", "-c", "1"],
        cwd=PROJECT_ROOT, env=env, capture_output=True, text=True, timeout=60,
    )


def test_worker_refuses_a_chart_it_cannot_load(live_stack, transactional_db) -> None:
    result = start_worker({**live_stack.env, "GATEWAY_CHART": "/nonexistent/chart"})
    assert result.returncode != 0
    assert "The worker cannot start" in result.stderr and "GATEWAY_CHART" in result.stderr


def test_worker_refuses_openshift_routes_without_an_issuer(live_stack, transactional_db) -> None:
    ManagedCluster.objects.create(
        name="ocp-no-gwapi", flavour="openshift", gateway_api=False, kubeconfig=KUBECONFIG, base_domain="o.test"
    )
    result = start_worker({**live_stack.env, "GATEWAY_CERT_ISSUER_NAME": ""})
    assert result.returncode != 0
    assert "cert-manager issuer" in result.stderr


def test_worker_refuses_the_default_oci_chart_without_a_pinned_version(live_stack, transactional_db) -> None:
    env = {k: v for k, v in live_stack.env.items() if k not in ("GATEWAY_CHART", "GATEWAY_CHART_VERSION")}
    result = start_worker(env)  # the production default: oci://ghcr.io/nvidia/openshell/helm-chart, unpinned
    assert result.returncode != 0
    assert "The worker cannot start" in result.stderr
    assert "oci://ghcr.io/nvidia/openshell/helm-chart" in result.stderr and "GATEWAY_CHART_VERSION" in result.stderr
