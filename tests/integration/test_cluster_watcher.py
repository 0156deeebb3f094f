"""The cluster watcher against a devcluster and the real Redis broker: leases per cluster, passes on change."""

from __future__ import annotations

import json
import threading
from datetime import timedelta

import pytest
import redis
from django.conf import settings

from controlplane.models import ManagedCluster
from controlplane.queues import queue_names
from gateways.models import Gateway
from tests.fixtures.devcluster import DevCluster
from tests.waiting import wait_until
from workers import queued_passes
from workers.watcher.service import ClusterWatch, Watcher, watch_targets

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

LEASE = timedelta(seconds=30)


@pytest.fixture
def broker() -> redis.Redis:
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    client.flushdb()
    yield client
    client.flushdb()


def queued(broker: redis.Redis) -> list[tuple[str, str]]:
    """(task name, args repr) of every message waiting in any queue."""
    queues = queue_names(settings.GATEWAY_TENANT_QUEUES)
    messages = [json.loads(raw) for queue in queues for raw in broker.lrange(queue, 0, -1)]
    return [(m["headers"]["task"], m["headers"]["argsrepr"]) for m in messages]


def clusters(devcluster: DevCluster, count: int) -> list[ManagedCluster]:
    return [
        ManagedCluster.objects.create(
            name=f"w{n}", kubeconfig=devcluster.kubeconfig.read_text(), base_domain=f"w{n}.example.test"
        )
        for n in range(count)
    ]


def owners() -> dict[str, str]:
    return dict(ManagedCluster.objects.values_list("name", "watcher_owner"))


def test_replicas_share_the_clusters_and_each_has_exactly_one_watcher(devcluster: DevCluster) -> None:
    clusters(devcluster, 3)
    first, second = Watcher("first", LEASE), Watcher("second", LEASE)
    try:
        first.rebalance()
        assert set(owners().values()) == {"first"}
        second.rebalance()  # everything is held: nothing to take yet
        first.rebalance()  # two live replicas now: the first gives one back
        second.rebalance()
        held = owners()
        assert sorted(held.values()) == ["first", "first", "second"]
        assert set(first.watches) | set(second.watches) == set(
            map(str, ManagedCluster.objects.values_list("pk", flat=True))
        ) and not set(first.watches) & set(second.watches)
    finally:
        first.run(stop_now())  # stops its watches and gives its leases back
    second.rebalance()
    assert set(owners().values()) == {"second"}
    second.run(stop_now())
    assert set(owners().values()) == {""}


def stop_now() -> threading.Event:
    stop = threading.Event()
    stop.set()
    return stop


def test_a_changed_release_record_enqueues_one_pass_for_its_gateway(
    devcluster: DevCluster, broker: redis.Redis, alice
) -> None:
    (cluster,) = clusters(devcluster, 1)
    namespace = devcluster.create_namespace("gw-watched")
    gateway = Gateway.objects.create(
        owner=alice,
        cluster=cluster,
        name="watched",
        namespace=namespace,
        image="r.test/gw:1",
        supervisor_image="r.test/s:1",
    )
    other = Gateway.objects.create(
        owner=alice,
        cluster=cluster,
        name="quiet",
        namespace="gw-quiet-00000000",
        image="r.test/gw:1",
        supervisor_image="r.test/s:1",
    )
    stop = threading.Event()
    watcher = Watcher("watcher", LEASE, flush_seconds=0.2)
    thread = threading.Thread(target=watcher.run, args=(stop,))
    thread.start()
    try:
        wait_until(
            lambda: ("workers.tasks.resync_cluster", f"['{cluster.pk}']") in queued(broker),
            "the resync a fresh watch starts with",
        )
        targets = len(watch_targets(cluster))
        wait_until(
            lambda: (
                sum(
                    n for agent, n in devcluster.in_flight()["current"].items() if not agent.startswith("Python-urllib")
                )
                >= targets
            ),
            "the watches to be listening",
        )
        broker.delete(*queue_names(settings.GATEWAY_TENANT_QUEUES))
        for revision in (1, 2, 3):  # three changes in quick succession
            devcluster.call(
                "POST",
                f"/api/v1/namespaces/{namespace}/secrets",
                {
                    "apiVersion": "v1",
                    "kind": "Secret",
                    "type": "helm.sh/release.v1",
                    "metadata": {
                        "name": f"sh.helm.release.v1.watched.v{revision}",
                        "labels": {"owner": "helm", "name": "watched", "version": str(revision)},
                    },
                    "data": {},
                },
            )
        expected = ("workers.tasks.reconcile_gateway", f"['{gateway.pk}']")
        wait_until(lambda: expected in queued(broker), "a pass for the changed gateway")
        flushed = watcher.flushes
        wait_until(lambda: watcher.flushes >= flushed + 2, "two more flushes, for any change still on its way")
        passes = [args for task, args in queued(broker) if task == "workers.tasks.reconcile_gateway"]
        assert set(passes) == {expected[1]} and str(other.pk) not in "".join(passes)
        assert len(passes) <= 2  # coalesced per flush, not one per event
    finally:
        stop.set()
        thread.join(10)
    assert owners() == {"w0": ""}


def test_a_gateway_with_a_pass_waiting_in_the_queue_gets_no_second_one_until_it_starts(
    devcluster: DevCluster, broker: redis.Redis, alice
) -> None:
    (cluster,) = clusters(devcluster, 1)
    gateway = Gateway.objects.create(
        owner=alice,
        cluster=cluster,
        name="busy",
        namespace="gw-busy-00000000",
        image="r.test/gw:1",
        supervisor_image="r.test/s:1",
    )
    watcher = Watcher("watcher", LEASE)
    watch = ClusterWatch(cluster_id=str(cluster.pk), name=cluster.name)
    watch.drain()  # no resync: only the changes below
    watcher.watches[watch.cluster_id] = watch

    def changed_and_flushed() -> list[str]:
        watch._changed(gateway.namespace)
        watcher.flush()
        return [args for task, args in queued(broker) if task == "workers.tasks.reconcile_gateway"]

    assert changed_and_flushed() == [f"['{gateway.pk}']"]
    assert changed_and_flushed() == [f"['{gateway.pk}']"]  # the queued pass will see this change too
    queued_passes.started(gateway.pk)
    assert changed_and_flushed() == [f"['{gateway.pk}']"] * 2  # a change after the pass started needs another
