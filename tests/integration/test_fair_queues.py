"""Fair queues with a real worker, Redis and devcluster: one tenant's burst of passes, queued first, delays
neither another tenant's pass nor a platform admin's; each is taken before most of the burst."""

from __future__ import annotations

import json

import pytest
import redis
from django.conf import settings

from controlplane.dispatch import send
from controlplane.models import ManagedCluster
from controlplane.queues import QueueName, tenant_queue
from controlplane.tasks import TaskName
from gateways import operations
from gateways.models import Gateway
from tests.fixtures.devcluster import DevCluster
from tests.fixtures.stack import Stack, stack_env
from tests.fixtures.stack_database import database_url
from tests.waiting import wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

BURST = 12
# Passes of the burst that may run before the other two: the worker takes one message from each queue that has
# one in turn, so one; the rest is slack for the messages a starting worker may take at once.
TAKEN_AHEAD = 3


def gateway(owner, cluster: ManagedCluster, name: str) -> Gateway:
    row = Gateway(owner=owner, cluster=cluster, name=name, image="r.example/gw:1", supervisor_image="r.example/sv:1")
    row.assign_namespace()
    row.save()
    return row


def worker_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return {**stack_env(database_url(), settings.CELERY_BROKER_URL, tmp_path_factory), "GATEWAY_TENANT_QUEUES": "8"}


def test_a_tenants_burst_delays_neither_another_tenants_pass_nor_an_admins(
    devcluster: DevCluster, alice, bob, admin_user, tmp_path_factory: pytest.TempPathFactory
) -> None:
    cluster = ManagedCluster.objects.create(
        name="fair", kubeconfig=devcluster.kubeconfig.read_text(), base_domain="fair.example.test"
    )
    burst = [gateway(alice, cluster, f"burst{n}") for n in range(BURST)]
    bobs = gateway(bob, cluster, "bobs")
    rescued = gateway(alice, cluster, "rescued")
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    broker.flushdb()
    for row in burst:  # sent as the watcher and the resync send: routed by owner
        send(TaskName.RECONCILE_GATEWAY, row.pk)
    send(TaskName.RECONCILE_GATEWAY, bobs.pk)
    operations.retry(Gateway.objects.filter(pk=rescued.pk), admin_user, "test")  # a platform admin's retry
    alices, bobs_queue = tenant_queue(alice.pk, 8), tenant_queue(bob.pk, 8)
    assert alices != bobs_queue, "consecutive owner ids share no shard"
    assert [broker.llen(queue) for queue in (alices, bobs_queue, QueueName.PLATFORM)] == [BURST, 1, 1]

    def untouched_once_both_passed() -> tuple[int] | None:
        passed = set(Gateway.objects.filter(last_reconciled_at__isnull=False).values_list("name", flat=True))
        return (BURST - len(passed - {"bobs", "rescued"}),) if {"bobs", "rescued"} <= passed else None

    stack = Stack("", worker_env(tmp_path_factory), tmp_path_factory.mktemp("fair-logs"))
    stack.start_worker(concurrency=1)
    try:
        (untouched,) = wait_until(untouched_once_both_passed, "bob's pass and the admin's retry", timeout=120)
    finally:
        stack.stop_all()
    assert untouched >= BURST - TAKEN_AHEAD, f"only {untouched} of alice's {BURST} passes were still waiting"


def queued_in(broker: redis.Redis, queue: str) -> list[str]:
    """The task names waiting in ``queue``, oldest first."""
    return [json.loads(raw)["headers"]["task"] for raw in reversed(broker.lrange(queue, 0, -1))]


def test_who_asks_through_the_api_decides_the_queue(cluster: ManagedCluster, alice, alice_api, admin_api) -> None:
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    broker.flushdb()
    body = {"name": "edge", "cluster": cluster.name, "image": "r.example/gw:1", "supervisor_image": "r.example/sv:1"}
    created = alice_api.post("/api/v1/gateways/", body, format="json")
    assert created.status_code == 201, created.content
    alices = tenant_queue(alice.pk, settings.GATEWAY_TENANT_QUEUES)
    assert queued_in(broker, alices) == [TaskName.RECONCILE_GATEWAY]
    assert queued_in(broker, QueueName.PLATFORM) == []

    url = f"/api/v1/gateways/{created.json()['id']}/"
    assert admin_api.post(f"{url}retry/").status_code == 202
    assert admin_api.delete(url).status_code == 202
    assert alice_api.post(f"{url}resync/").status_code == 202
    assert queued_in(broker, QueueName.PLATFORM) == [TaskName.RECONCILE_GATEWAY] * 2
    assert queued_in(broker, alices) == [TaskName.RECONCILE_GATEWAY] * 2
    assert queued_in(broker, QueueName.DEFAULT) == []
