"""The Celery queues: gateway passes go to one queue per tenant shard and one for platform admins' work.

The worker consumes every queue here (it is started without ``-Q``), and kombu's Redis transport polls them in
rotation, taking one message from each queue that has one in turn. So one tenant's burst fills only its shard's
queue: another tenant's pass waits behind at most one message per other queue, not behind the burst. Platform
admins' work (their deletes, retries, resyncs and edits, rollout waves and rollbacks) has a queue of its own, so a
tenant's burst never starves it either.

A tenant's shard is its owner id modulo the number of shards (``GATEWAY_TENANT_QUEUES``), not a hash: tenants
with consecutive ids never share a shard until there are more tenants than shards. Tenants whose ids are equal
modulo that number do share one, and a burst from one of them delays the others in that shard (first come,
first served between them), and no one else."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["TENANT_QUEUE_PREFIX", "QueueName", "queue_names", "tenant_queue"]

TENANT_QUEUE_PREFIX = "gateways.tenant-"


class QueueName(StrEnum):
    DEFAULT = "celery"  # every other task (the name is Celery's default)
    PLATFORM = "gateways.platform"  # gateway passes a platform admin or a rollout asked for


def tenant_queue(owner_id: int, shards: int) -> str:
    """The queue of the passes for the gateways of owner ``owner_id``."""
    if shards < 1:
        raise ValueError(f"shards must be at least 1, not {shards}")
    return f"{TENANT_QUEUE_PREFIX}{owner_id % shards}"


def queue_names(shards: int) -> list[str]:
    """Every queue the workers consume, with ``shards`` tenant shards."""
    return [QueueName.DEFAULT, QueueName.PLATFORM, *(tenant_queue(n, shards) for n in range(shards))]
