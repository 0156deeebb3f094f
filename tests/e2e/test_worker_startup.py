"""The worker refuses to start on inconsistent configuration, naming what to fix; a chart registry that is down
is not such a thing: the worker starts, serves catalogs, and installs the gateways once the registry is back."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import requests

from controlplane.models import ManagedCluster
from tests.fixtures.charts import MIRROR_CHART, push_chart
from tests.fixtures.devcluster import DevCluster
from tests.fixtures.registry import Registry, expected_lines, fbc_layer
from tests.fixtures.registry_proxy import RegistryProxy
from tests.fixtures.stack import ApiSession, Stack
from tests.helpers import KUBECONFIG
from tests.paths import PROJECT_ROOT
from tests.waiting import wait_until

pytestmark = pytest.mark.e2e


def start_worker(env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "celery", "-A", "controlplane", "worker", "-l", "INFO", "-c", "1"],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_worker_refuses_a_chart_it_cannot_load(live_stack, stack_db) -> None:
    result = start_worker({**live_stack.env, "GATEWAY_CHART": "/nonexistent/chart"})
    assert result.returncode != 0
    assert "The worker cannot start" in result.stderr and "GATEWAY_CHART" in result.stderr


def test_worker_refuses_openshift_routes_without_an_issuer(live_stack, stack_db) -> None:
    ManagedCluster.objects.create(
        name="ocp-no-gwapi", flavour="openshift", gateway_api=False, kubeconfig=KUBECONFIG, base_domain="o.test"
    )
    result = start_worker({**live_stack.env, "GATEWAY_CERT_ISSUER_NAME": ""})
    assert result.returncode != 0
    assert "cert-manager issuer" in result.stderr


def test_worker_refuses_the_upstream_oci_chart_without_a_pinned_version(live_stack, stack_db) -> None:
    env = {k: v for k, v in live_stack.env.items() if k != "GATEWAY_CHART_VERSION"}
    result = start_worker({**env, "GATEWAY_CHART": "oci://ghcr.io/nvidia/openshell/helm-chart"})
    assert result.returncode != 0
    assert "The worker cannot start" in result.stderr
    assert "oci://ghcr.io/nvidia/openshell/helm-chart" in result.stderr and "GATEWAY_CHART_VERSION" in result.stderr


def test_worker_refuses_the_default_embedded_chart_where_the_image_did_not_embed_it(live_stack, stack_db):
    env = {k: v for k, v in live_stack.env.items() if k not in ("GATEWAY_CHART", "GATEWAY_CHART_VERSION")}
    result = start_worker(env)  # the default is the image's archive, which a checkout does not have
    assert result.returncode != 0
    assert f"GATEWAY_CHART: cannot load '{PROJECT_ROOT / 'charts' / 'gateway-chart.tgz'}'" in result.stderr


@pytest.fixture
def registry_down(live_stack: Stack, registry_proxy: RegistryProxy, tmp_path: Path) -> Iterator[str]:
    """The mirror chart behind a proxy that answers 503, and the stack's worker restarted with it as GATEWAY_CHART
    meanwhile; yields the chart's oci:// reference. The proxy and the worker are restored afterwards."""
    push_chart(MIRROR_CHART, registry_proxy.target.host, "e2e-outage", tmp_path)
    ref = f"oci://{registry_proxy.host}/e2e-outage/openshell-gateway"
    registry_proxy.fail_with = 503
    try:
        live_stack.restart_worker({"GATEWAY_CHART": ref, "GATEWAY_CHART_VERSION": "0.1.0"})
        yield ref
    finally:
        registry_proxy.fail_with = None
        live_stack.restart_worker({})


def conditions(body: dict) -> dict[str, tuple[str, str]]:
    return {c["type"]: (c["status"], c["reason"]) for c in body["status"]["conditions"]}


def test_a_worker_started_while_the_chart_registry_answers_503_serves_catalogs_and_installs_gateways_later(
    live_stack: Stack,
    api_session: Callable[..., ApiSession],
    tenant: ApiSession,
    gateway_cluster: DevCluster,
    wait_for_phase: Callable[..., dict],
    registry_down: str,
    registry_proxy: RegistryProxy,
    own_registry: Registry,
    repository: str,
    register,
) -> None:
    assert "GATEWAY_CHART: cannot pull" in live_stack.log("worker") and "503" in live_stack.log("worker")
    admin = api_session()
    made = admin.post(
        "/api/v1/releases/", json={"name": "remote", "chart": registry_down, "version": "0.1.0", "default": True}
    )
    assert made.status_code == 201, made.text
    register(gateway_cluster, "outage")
    created = tenant.post(
        "/api/v1/gateways/",
        json={
            "name": "edge",
            "cluster": "outage",
            "image": "ghcr.io/nvidia/openshell/gateway:1.0.0",
            "supervisor_image": "ghcr.io/nvidia/openshell/supervisor:1.0.0",
        },
    )
    assert created.status_code == 201, created.text
    gw_url = f"/api/v1/gateways/{created.json()['id']}/"

    # Catalogs go on: this worker pulls and serves one from another registry while the chart's answers 503.
    own_registry.push_image(repository, "stable", [fbc_layer("v1")])
    catalog = admin.post(
        "/api/v1/catalogs/",
        json={
            "name": "community",
            "source": {"image": {"ref": f"{own_registry.host}/{repository}:stable"}},
        },
    )
    assert catalog.status_code == 201, catalog.text
    content = f"{live_stack.api_url}/catalogs/community/api/v1/all"
    wait_until(lambda: requests.get(content, timeout=10).status_code == 200, "the catalog to be served")
    assert requests.get(content, timeout=10).content == expected_lines("v1")

    # The gateway waits on its release, which stays Pending (not Invalid) while the pull is retried.
    stalled = wait_until(
        lambda: (b := tenant.get(gw_url).json()) and conditions(b).get("Stalled") == ("True", "ChartUnavailable") and b,
        "Stalled ChartUnavailable",
    )
    assert stalled["status"]["phase"] == "Pending" and stalled["status"]["failure_count"] == 0
    release = admin.get(f"/api/v1/releases/{made.json()['id']}/").json()["status"]
    assert (release["status"], release["reason"]) == ("Pending", "ChartUnavailable") and "503" in release["message"]
    asked = len(registry_proxy.requests)
    wait_until(lambda: len(registry_proxy.requests) > asked, "the pull to be retried")

    registry_proxy.fail_with = None
    running = wait_for_phase(created.json()["id"], "Running", timeout=120)
    assert conditions(running)["Stalled"] == ("False", "Progressing")
    assert running["status"]["release"]["chart_version"] == "0.1.0"
    release = admin.get(f"/api/v1/releases/{made.json()['id']}/").json()["status"]
    assert (release["status"], release["reason"], release["message"]) == ("Ready", None, "")
    assert tenant.delete(gw_url).status_code == 202
    wait_until(lambda: tenant.get(gw_url).status_code == 404, "the gateway to be uninstalled", timeout=90)
