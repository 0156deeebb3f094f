"""Fair queues: which queue a gateway pass goes to, and that the workers are started to consume every queue."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from django.conf import settings

from controlplane.celery import app
from controlplane.queues import QueueName, queue_names, tenant_queue
from controlplane.tasks import TaskName
from gateways.pass_queue import asked_by, route
from tests.paths import PROJECT_ROOT
from workers.tasks.gateways import same_queue

# Every place a worker is started: none may name its queues, so each consumes all of them.
WORKER_STARTS = (
    "scripts/run_local.py",
    "scripts/entrypoint.sh",
    "deploy/chart/templates/worker.yaml",
    "tests/fixtures/stack.py",
    "bench/gateways.py",
    "bench/fairness.py",
)


def user(*, superuser: bool) -> SimpleNamespace:
    return SimpleNamespace(is_authenticated=True, is_active=True, is_superuser=superuser)


def test_tenants_with_consecutive_ids_get_shards_of_their_own_until_the_shards_run_out() -> None:
    assert len({tenant_queue(owner, 8) for owner in range(40, 48)}) == 8
    assert tenant_queue(3, 8) == tenant_queue(11, 8) == "gateways.tenant-3"  # a collision: same id modulo 8


def test_one_shard_puts_every_tenant_in_one_queue() -> None:
    assert {tenant_queue(owner, 1) for owner in range(1, 20)} == {"gateways.tenant-0"}


def test_shards_must_be_at_least_one() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        tenant_queue(1, 0)


@pytest.mark.parametrize("shards", [1, 3, 8])
def test_the_queue_names_hold_the_default_the_platforms_and_every_shard_once(shards: int) -> None:
    names = queue_names(shards)
    assert len(names) == len(set(names)) == shards + 2
    assert {QueueName.DEFAULT, QueueName.PLATFORM} <= set(names)
    assert {tenant_queue(owner, shards) for owner in range(100)} == set(names) - set(QueueName)


def test_a_platform_admins_passes_go_to_the_platforms_queue_a_tenants_to_their_shard() -> None:
    assert asked_by(user(superuser=True)) is QueueName.PLATFORM
    assert asked_by(user(superuser=False)) is None


@pytest.mark.parametrize(
    ("name", "options"),
    [
        (TaskName.RESYNC_CLUSTER, {}),  # not a gateway pass: the default queue
        (TaskName.RECONCILE_GATEWAY, {"queue": QueueName.PLATFORM}),  # the sender chose
    ],
)
def test_the_router_leaves_alone_what_is_not_its_to_route(name: str, options: dict) -> None:
    assert route(name, ["6f1c0a3e-0000-4000-8000-000000000000"], {}, options) is None


def test_the_celery_app_declares_every_queue_and_routes_gateway_passes() -> None:
    assert set(app.amqp.queues) == set(queue_names(settings.GATEWAY_TENANT_QUEUES))
    assert "gateways.pass_queue.route" in app.conf.task_routes


@pytest.mark.parametrize("path", WORKER_STARTS)
def test_no_worker_is_started_for_some_queues_only(path: str) -> None:
    text = (PROJECT_ROOT / path).read_text()
    assert "worker" in text
    assert not re.search(r"""(^|[\s"'])(-Q|--queues)\b""", text), f"{path} names the worker's queues"


def pass_from(routing_key: str | None) -> SimpleNamespace:
    delivery_info = None if routing_key is None else {"exchange": routing_key, "routing_key": routing_key}
    return SimpleNamespace(request=SimpleNamespace(delivery_info=delivery_info), app=app)


@pytest.mark.parametrize(
    ("routing_key", "requeued_in"),
    [
        (QueueName.PLATFORM, QueueName.PLATFORM),  # an admin's delete polls ahead of a tenant's burst
        ("gateways.tenant-3", "gateways.tenant-3"),
        ("gateways.tenant-99", None),  # a shard no longer consumed: the router picks the owner's shard again
        (None, None),  # run in the process, not from a queue
    ],
)
def test_a_requeued_pass_keeps_the_queue_it_came_from(routing_key: str | None, requeued_in: str | None) -> None:
    assert same_queue(pass_from(routing_key)) == requeued_in
