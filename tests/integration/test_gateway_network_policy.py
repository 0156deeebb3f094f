"""The upstream chart's sandbox NetworkPolicy: off unless the gateway's cluster asks for it (`network_policy`).

Before: the mapping never set `networkPolicy.enabled`, so every gateway got the chart's default policy, which
HyperShell had decided not to install. Real parts: `run_pass` and `fleet.resync_cluster` on PostgreSQL rows, the
real helm binary with the unmodified upstream chart, devcluster over HTTP.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from controlplane.models import ManagedCluster
from gateways.models import Gateway
from gateways.values import chart_fullname
from tests.fixtures.charts import require_upstream_chart
from tests.fixtures.devcluster import DevCluster, start_devcluster
from tests.integration.test_gateway_real_clusters import converge, make_gateway, register, running
from tests.integration.test_gateway_upstream_chart import (  # noqa: F401 (upstream_worker is a fixture)
    delete_through_the_control_plane,
    upstream_worker,
)
from workers.reconcile.gateway.passes import fleet

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("upstream_worker"),
]


@pytest.fixture(scope="module")
def k8s(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevCluster]:
    """A Kubernetes devcluster serving the Gateway API and the Agent Sandbox API."""
    require_upstream_chart()
    with start_devcluster(tmp_path_factory.mktemp("netpol"), extra_presets=("agent-sandbox",)) as dc:
        yield dc


def policies(dc: DevCluster, gateway: Gateway) -> list[str]:
    path = f"/apis/networking.k8s.io/v1/namespaces/{gateway.namespace}/networkpolicies"
    return [item["metadata"]["name"] for item in dc.call("GET", path)["items"]]


def resync(cluster: ManagedCluster) -> list[str]:
    """One fleet resync of the cluster; the gateways it handed to a pass."""
    enqueued: list[str] = []
    fleet.resync_cluster(str(cluster.pk), enqueue=enqueued.append)
    return enqueued


def test_a_new_gateway_gets_no_network_policy_unless_its_cluster_asks(k8s, alice) -> None:
    default = register(k8s, "np-default", gateway_api=True)
    assert default.network_policy is False
    plain = converge(make_gateway(alice, default, name="plain"), running)
    assert policies(k8s, plain) == []

    asking = register(k8s, "np-on", gateway_api=True, network_policy=True)
    guarded = converge(make_gateway(alice, asking, name="guarded"), running)
    assert policies(k8s, guarded) == [f"{chart_fullname(guarded.helm_release)}-sandbox-ssh"]

    # A platform admin turns it off: the fleet resync sees values that differ, and the next pass upgrades the
    # release without the policy; the gateway stays Running.
    resync(asking)  # the first resync writes the status it judges; the next one finds nothing to do
    assert resync(asking) == []
    ManagedCluster.objects.filter(pk=asking.pk).update(network_policy=False)
    assert resync(asking) == [str(guarded.pk)]
    upgraded = converge(guarded, lambda current: running(current) and current.release_revision == 2)
    assert policies(k8s, upgraded) == []

    for gateway in (plain, upgraded):
        delete_through_the_control_plane(gateway, k8s)


def test_turning_the_setting_on_installs_the_policy_on_the_next_pass(k8s, alice) -> None:
    cluster = register(k8s, "np-later", gateway_api=True)
    gateway = converge(make_gateway(alice, cluster, name="later"), running)
    assert policies(k8s, gateway) == []
    ManagedCluster.objects.filter(pk=cluster.pk).update(network_policy=True)
    upgraded = converge(gateway, lambda current: running(current) and current.release_revision == 2)
    assert policies(k8s, upgraded) == [f"{chart_fullname(gateway.helm_release)}-sandbox-ssh"]
    delete_through_the_control_plane(upgraded, k8s)
