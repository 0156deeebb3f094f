"""A pass that meets lock contention on PostgreSQL is retried by Celery, and frees its lease before the retry.

The error is real: another connection holds the cluster's row lock, and the pass asks for it with NOWAIT
(PostgreSQL's lock_not_available). The task runs through Celery's own retry machinery (``apply``: eagerly, so the
retry's countdown is not waited for).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import psycopg
import pytest
from celery import Task
from celery.signals import task_retry
from django.conf import settings
from django.db import transaction

from controlplane.celery import app
from controlplane.models import ManagedCluster
from gateways.models import Gateway
from workers.reconcile.lease import held_lease
from workers.tasks.transient import retried_when_transient

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

TTL = timedelta(seconds=30)
attempts: list[str] = []


@app.task(bind=True, name="tests.contended_pass")
def contended_pass(self: Task, gateway_id: str) -> str:
    """A pass that takes the gateway's lease, then needs its cluster's row lock at once."""
    with retried_when_transient(self), held_lease(Gateway, gateway_id, TTL) as lease:
        assert lease is not None, "the lease of the failed attempt was not released"
        attempts.append(lease.token)
        with transaction.atomic():
            ManagedCluster.objects.select_for_update(nowait=True).filter(gateways__pk=gateway_id).first()
        return lease.token


@pytest.fixture
def gateway(alice: Any, cluster: ManagedCluster) -> Gateway:
    gateway = Gateway(
        owner=alice, cluster=cluster, name="contended", image="r.test/gw:1", supervisor_image="r.test/s:1"
    )
    gateway.assign_namespace()
    gateway.save()
    return gateway


@pytest.fixture
def cluster_row_locked(cluster: ManagedCluster) -> Iterator[psycopg.Connection]:
    """Another session holding the cluster's row lock until it rolls back."""
    db = settings.DATABASES["default"]
    with psycopg.connect(host=db["HOST"], port=db["PORT"], user=db["USER"], dbname=db["NAME"]) as other:
        other.execute(f"SELECT 1 FROM {ManagedCluster._meta.db_table} WHERE id = %s FOR UPDATE", (cluster.pk,))
        yield other


def test_a_pass_meeting_lock_contention_is_retried_after_releasing_its_lease(
    gateway: Gateway, cluster_row_locked: psycopg.Connection
) -> None:
    attempts.clear()
    at_retry: list[tuple[str, str]] = []

    def on_retry(reason: Exception, **_: Any) -> None:
        owner = Gateway.objects.values_list("lease_owner", flat=True).get(pk=gateway.pk)
        at_retry.append((owner, str(reason)))
        cluster_row_locked.rollback()  # the contention ends

    task_retry.connect(on_retry, weak=False)
    try:
        result = contended_pass.apply((str(gateway.pk),))
    finally:
        task_retry.disconnect(on_retry)
    assert result.successful(), result.traceback
    assert len(attempts) == 2 and result.get() == attempts[1]
    ((owner, reason),) = at_retry
    assert owner == "", "the lease was still held when the retry was scheduled"
    assert "could not obtain lock" in reason
    assert Gateway.objects.values_list("lease_owner", flat=True).get(pk=gateway.pk) == ""
