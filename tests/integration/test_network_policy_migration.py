"""Migration 0015 (gateways): a cluster that has gateways keeps the chart's sandbox NetworkPolicy on upgrade.

Before `ManagedCluster.network_policy` every gateway got the chart's default policy. After the upgrade such a
cluster has `network_policy=True`, so its gateways' values are unchanged: the fleet resync starts no pass, helm
adds no revision, and the policy stays. A cluster without gateways gets the new default, off.

Real parts: PostgreSQL migrated back and forward with Django's migration executor, the worker's pass and fleet
resync, the real helm binary with the unmodified upstream chart, devcluster over HTTP.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from controlplane.models import ManagedCluster
from gateways.models import Gateway
from gateways.values import chart_fullname
from tests.fixtures.charts import require_upstream_chart
from tests.fixtures.devcluster import DevCluster, start_devcluster
from tests.integration.test_gateway_network_policy import policies
from tests.integration.test_gateway_real_clusters import converge, make_gateway, register, running
from tests.integration.test_gateway_upstream_chart import (  # noqa: F401 (upstream_worker is a fixture)
    delete_through_the_control_plane,
    upstream_worker,
)
from tests.integration.test_release_images_migration import migrate
from workers.reconcile.gateway.passes import fleet
from workers.reconcile.gateway.passes.run import run_pass

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("upstream_worker"),
]

BEFORE = [("controlplane", "0009_cluster_events"), ("gateways", "0014_gateway_force_deletion")]


@pytest.fixture(scope="module")
def k8s(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevCluster]:
    require_upstream_chart()
    with start_devcluster(tmp_path_factory.mktemp("netpol-mig"), extra_presets=("agent-sandbox",)) as dc:
        yield dc


def test_clusters_with_gateways_keep_the_policy_and_nothing_is_upgraded(k8s, alice) -> None:
    # As before the field existed: the chart's default applies (the mapping leaves the key out, as with True).
    used = register(k8s, "mig-used", gateway_api=True, network_policy=True)
    empty = register(k8s, "mig-empty", gateway_api=True, network_policy=True)
    gateway = converge(make_gateway(alice, used), running)
    fullname = chart_fullname(gateway.helm_release)
    assert policies(k8s, gateway) == [f"{fullname}-sandbox-ssh"] and gateway.release_revision == 1

    migrate(BEFORE)
    migrate()

    assert dict(ManagedCluster.objects.values_list("name", "network_policy")) == {"mig-used": True, "mig-empty": False}
    fleet.resync_cluster(str(used.pk), enqueue=lambda pk: None)  # writes the status it judges
    enqueued: list[str] = []
    report = fleet.resync_cluster(str(used.pk), enqueue=enqueued.append)
    assert (report.passes, enqueued) == (0, []), report
    run_pass(str(gateway.pk))
    after = Gateway.objects.get(pk=gateway.pk)
    assert (after.phase, after.release_revision) == ("Running", 1)
    assert policies(k8s, after) == [f"{fullname}-sandbox-ssh"]
    assert not ManagedCluster.objects.get(pk=empty.pk).network_policy
    delete_through_the_control_plane(after, k8s)
