"""End-to-end fixtures: clusters for gateways (with the Agent Sandbox API the chart requires)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from kubernetes import client, config

from controlplane.models import ManagedCluster
from tests.fixtures.cleanup import Cleanup
from tests.fixtures.devcluster import DevCluster, start_devcluster
from tests.fixtures.stack import ApiSession
from tests.waiting import wait_until


@pytest.fixture(scope="session")
def gateway_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevCluster]:
    with start_devcluster(tmp_path_factory.mktemp("gw-k8s"), ready_delay=0.3, extra_presets=("agent-sandbox",)) as dc:
        yield dc


@pytest.fixture(scope="session")
def second_gateway_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevCluster]:
    """Another cluster, for tests of one cluster's trouble not reaching the others."""
    with start_devcluster(tmp_path_factory.mktemp("gw-k8s-2"), ready_delay=0.3, extra_presets=("agent-sandbox",)) as dc:
        yield dc


@pytest.fixture(scope="session")
def gateway_openshift_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevCluster]:
    with start_devcluster(
        tmp_path_factory.mktemp("gw-ocp"), flavour="openshift", ready_delay=0.3, extra_presets=("agent-sandbox",)
    ) as dc:
        dc.create_cluster_issuer("e2e-issuer")  # the stack's GATEWAY_CERT_ISSUER_NAME
        yield dc


@pytest.fixture
def register(cleanup: Cleanup) -> Callable[..., ManagedCluster]:
    """Register a devcluster through the API (as a platform admin); it is deleted when the test ends."""

    def make(dc: DevCluster, name: str, *, flavour: str = "kubernetes", gateway_api: bool = True) -> ManagedCluster:
        body = {
            "name": name,
            "flavour": flavour,
            "kubeconfig": dc.kubeconfig.read_text(),
            "base_domain": f"{name}.example.test",
            "gateway_api": gateway_api,
        }
        return ManagedCluster.objects.get(pk=cleanup(cleanup.keeper.post("/api/v1/clusters/", json=body))["id"])

    return make


def kube_api(dc: DevCluster) -> client.ApiClient:
    return config.new_client_from_config(config_file=str(dc.kubeconfig))


@pytest.fixture
def tenant(api_session: Callable[..., ApiSession]) -> ApiSession:
    return api_session("tenant", admin=False)


@pytest.fixture
def wait_for_phase(tenant: ApiSession) -> Callable[..., dict[str, Any]]:
    def wait(gateway_id: str, phase: str, timeout: float = 90, **extra: Any) -> dict[str, Any]:
        def check() -> dict[str, Any] | None:
            body = tenant.get(f"/api/v1/gateways/{gateway_id}/").json()
            status = body["status"]
            if status["phase"] == phase and all(status.get(k) == v for k, v in extra.items()):
                return body
            return None

        return wait_until(check, f"gateway {gateway_id} to reach {phase} {extra or ''}", timeout=timeout)

    return wait


CPCTL = Path(sys.executable).with_name("cpctl")


@pytest.fixture
def cpctl(tmp_path: Path) -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run the installed console script with a context file of its own and no CPCTL_URL/CPCTL_TOKEN; ``typed`` is
    what a person types."""
    assert CPCTL.exists(), f"{CPCTL} is missing: `make setup` installs the project (pip install -e .)"
    env = {k: v for k, v in os.environ.items() if not k.startswith("CPCTL_")}
    env["CPCTL_CONFIG"] = str(tmp_path / "cpctl" / "config.yaml")

    def run(
        *args: str, status: int = 0, timeout: float = 180, typed: str | None = None
    ) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(
            [str(CPCTL), *args], env=env, capture_output=True, text=True, timeout=timeout, check=False, input=typed
        )
        assert result.returncode == status, (args, result.returncode, result.stdout[-2000:], result.stderr[-2000:])
        return result

    return run
