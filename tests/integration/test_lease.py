"""The reconcile lease on PostgreSQL: renewed while a pass runs, fenced by its token."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest

from gateways.models import Gateway
from tests.waiting import repeat_for
from workers.reconcile.lease import held_lease

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

TTL = timedelta(seconds=1.5)


@pytest.fixture
def gateway(alice, cluster) -> Gateway:
    gateway = Gateway(owner=alice, cluster=cluster, name="leased", image="r.test/gw:1", supervisor_image="r.test/s:1")
    gateway.assign_namespace()
    gateway.save()
    return gateway


def test_a_pass_longer_than_the_lease_keeps_it(gateway) -> None:
    holding, done = threading.Event(), threading.Event()

    def long_pass() -> None:
        with held_lease(Gateway, gateway.pk, TTL) as lease:
            assert lease is not None
            holding.set()
            done.wait(10)

    worker = threading.Thread(target=long_pass)
    worker.start()
    assert holding.wait(5)
    expiries = set()

    def no_second_lease() -> None:
        with held_lease(Gateway, gateway.pk, TTL) as second:
            assert second is None, "a second pass won a lease that was being renewed"
        expiries.add(Gateway.objects.values_list("lease_expires_at", flat=True).get(pk=gateway.pk))

    repeat_for(3 * TTL.total_seconds(), no_second_lease, interval=0.1)  # twice the lease duration and more
    done.set()
    worker.join()
    assert len(expiries) >= 3  # renewed, not merely long
    assert Gateway.objects.values_list("lease_owner", flat=True).get(pk=gateway.pk) == ""
    with held_lease(Gateway, gateway.pk, TTL) as after:
        assert after is not None


def test_a_taken_over_lease_is_lost_and_not_released_by_its_old_holder(gateway) -> None:
    with held_lease(Gateway, gateway.pk, TTL) as lease:
        assert lease is not None and lease.renew()
        Gateway.objects.filter(pk=gateway.pk).update(lease_owner="another-worker")
        assert not lease.renew() and lease.lost
    assert Gateway.objects.values_list("lease_owner", flat=True).get(pk=gateway.pk) == "another-worker"
