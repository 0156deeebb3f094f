"""Past one machine: two Celery workers and two watcher processes share four clusters, and survive a watcher's death.

Real processes throughout: `manage.py watch_clusters` twice (a 3-second lease), two Celery workers on the real Redis
broker, four devclusters and PostgreSQL. Each cluster is watched by exactly one watcher, the two split the clusters,
and a change on any cluster leads to a pass for its gateway, in whichever worker. When a watcher is killed (its
lease lapses) or stopped (it gives its leases back), the survivor takes its clusters and their changes still lead
to passes.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
import redis
from django.conf import settings

from controlplane.models import ManagedCluster
from gateways.models import Gateway
from tests.fixtures.devcluster import DevCluster, start_devcluster
from tests.fixtures.stack import Stack, stack_env
from tests.fixtures.stack_database import database_url
from tests.ports import free_port
from tests.waiting import wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

CLUSTERS = 4
LEASE_SECONDS = 3
WATCHERS = ("watcher-a", "watcher-b")
WORKERS = ("worker-1", "worker-2")


@pytest.fixture
def devclusters(tmp_path: Path) -> Iterator[list[DevCluster]]:
    with ExitStack() as stack:
        yield [stack.enter_context(start_devcluster(tmp_path / f"dc{n}", pki=False)) for n in range(CLUSTERS)]


@pytest.fixture
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    broker = settings.CELERY_BROKER_URL
    redis.Redis.from_url(broker).flushdb()
    env = stack_env(database_url(), broker, tmp_path_factory)
    env.update(WATCHER_LEASE_SECONDS=str(LEASE_SECONDS), RESYNC_INTERVAL_SECONDS="3600")
    running = Stack(api_url=f"http://127.0.0.1:{free_port()}", env=env, logdir=tmp_path_factory.mktemp("shards"))
    try:
        yield running
    finally:
        running.stop_all()
        redis.Redis.from_url(broker).flushdb()


def owners() -> dict[str, str]:
    """Each cluster's watcher, by cluster name ("" while none holds it)."""
    return dict(ManagedCluster.objects.values_list("name", "watcher_owner"))


def passes(stack: Stack, gateway: Gateway) -> int:
    """The passes either worker ran for a gateway, by their log lines."""
    return sum(stack.log(name).count(f"gateway {gateway.name} pass:") for name in WORKERS)


def watch(stack: Stack, identity: str) -> None:
    stack.start(identity, [sys.executable, "manage.py", "watch_clusters", "--identity", identity])


def change_release_record(devcluster: DevCluster, gateway: Gateway, revision: int) -> None:
    """What a helm upgrade leaves: a new storage record in the gateway's namespace."""
    devcluster.call(
        "POST",
        f"/api/v1/namespaces/{gateway.namespace}/secrets",
        {
            "apiVersion": "v1",
            "kind": "Secret",
            "type": "helm.sh/release.v1",
            "metadata": {
                "name": f"sh.helm.release.v1.{gateway.helm_release_name}.v{revision}",
                "labels": {"owner": "helm", "name": gateway.helm_release_name, "version": str(revision)},
            },
            "data": {},
        },
    )


def test_two_watchers_split_the_clusters_and_the_survivor_takes_over(devclusters, stack, alice) -> None:
    gateways = []
    for n, devcluster in enumerate(devclusters):
        cluster = ManagedCluster.objects.create(
            name=f"shard{n}", kubeconfig=devcluster.kubeconfig.read_text(), base_domain=f"shard{n}.example.test"
        )
        gateway = Gateway(
            owner=alice, cluster=cluster, name=f"sharded{n}", image="r.test/gw:1", supervisor_image="r.test/s:1"
        )
        gateway.assign_namespace()
        gateway.save()
        devcluster.call(
            "POST",
            "/api/v1/namespaces",
            {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": gateway.namespace}},
        )
        gateways.append(gateway)
    for name in WORKERS:
        stack.start_worker(name, concurrency=1)
    for name in WATCHERS:
        watch(stack, name)
    split = ["watcher-a"] * 2 + ["watcher-b"] * 2
    wait_until(lambda: sorted(owners().values()) == split, f"each watcher to hold two clusters: {owners()}", timeout=60)
    wait_until(lambda: all(" ready." in stack.log(name) for name in WORKERS), "both workers", timeout=60)

    # Every cluster's change reaches a worker, through the one watcher that holds it.
    before = {g.name: passes(stack, g) for g in gateways}
    for devcluster, gateway in zip(devclusters, gateways, strict=True):
        change_release_record(devcluster, gateway, 1)
    for gateway in gateways:
        wait_until(lambda g=gateway: passes(stack, g) > before[g.name], f"a pass for {gateway.name}", timeout=60)
    assert sorted(owners().values()) == split, "no cluster changed hands meanwhile"

    # Killed: watcher-a's leases lapse, and watcher-b takes its clusters.
    held_by_a = [g for g in gateways if owners()[g.cluster.name] == "watcher-a"]
    stack.stop("watcher-a", sig=signal.SIGKILL)
    wait_until(
        lambda: set(owners().values()) == {"watcher-b"},
        f"watcher-b to take every cluster: {owners()}",
        timeout=LEASE_SECONDS * 10,
    )
    for gateway in held_by_a:
        count = passes(stack, gateway)
        change_release_record(devclusters[gateways.index(gateway)], gateway, 2)
        wait_until(
            lambda g=gateway, c=count: passes(stack, g) > c, f"a pass for {gateway.name} after failover", timeout=60
        )

    # Stopped: a watcher gives its leases back at once, and a new replica takes its share.
    watch(stack, "watcher-c")
    wait_until(
        lambda: sorted(owners().values()) == ["watcher-b"] * 2 + ["watcher-c"] * 2,
        f"watcher-c to take its share: {owners()}",
        timeout=LEASE_SECONDS * 10,
    )
    stack.stop("watcher-b", sig=signal.SIGTERM)
    assert "watcher-b" not in owners().values(), "a stopped watcher gives its leases back on the way out"
    wait_until(
        lambda: set(owners().values()) == {"watcher-c"},
        f"watcher-c to take every cluster: {owners()}",
        timeout=LEASE_SECONDS * 10,
    )
