"""A cluster's budget of concurrent API requests, against real devclusters and the real Redis.

Many clients (each with its own Redis connection, as worker processes have) send requests to a slow
cluster at once; devcluster counts the requests it serves at once, and its peak never exceeds the budget.
A full budget on the slow cluster leaves a fast cluster's budget untouched. A pass whose cluster's share of the
worker's pool is taken gives its pool slot back at once, without a lease and without a request to the cluster.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.contrib.auth import get_user_model

from controlplane.metrics import PassOutcome
from controlplane.models import ManagedCluster
from gateways.models import Gateway
from tests.fixtures.devcluster import DevCluster, start_devcluster
from workers import pool_share, singletons
from workers.drivers import errors
from workers.drivers.kube import KubeClient
from workers.drivers.request_budget import UNBOUNDED, RedisRequestBudget, RequestBudget
from workers.reconcile.gateway.passes.run import CLUSTER_BUSY_SECONDS, run_pass

pytestmark = pytest.mark.integration

CLIENTS = 8
REQUESTS_EACH = 3
LIMIT = 2
LATENCY_MS = 150
KUBE_CLIENT_AGENT = "OpenAPI-Generator"


@pytest.fixture(scope="module")
def slow(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevCluster]:
    with start_devcluster(tmp_path_factory.mktemp("budget-slow"), pki=False) as cluster:
        cluster.add_fault(r"^/api/v1/namespaces/", method="GET", status=None, latency_ms=LATENCY_MS)
        yield cluster


@pytest.fixture(scope="module")
def fast(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevCluster]:
    with start_devcluster(tmp_path_factory.mktemp("budget-fast"), pki=False) as cluster:
        yield cluster


def budget(**options: float) -> Callable[[], RedisRequestBudget]:
    """A factory of budgets sharing one Redis key space (a fresh one per test), each on its own connection."""
    prefix = f"test-budget-{uuid.uuid4().hex[:8]}"
    location = settings.CACHES["default"]["LOCATION"]
    return lambda: RedisRequestBudget(redis.Redis.from_url(location), limit=LIMIT, prefix=prefix, **options)


def peak_of_kube_clients(cluster: DevCluster) -> int:
    peaks = cluster.in_flight()["peak"]
    return max((n for agent, n in peaks.items() if agent.startswith(KUBE_CLIENT_AGENT)), default=0)


def read_namespaces_at_once(cluster: DevCluster, budgets: Callable[[], RequestBudget]) -> list[bool]:
    """CLIENTS clients, each reading the default namespace REQUESTS_EACH times, all at once."""
    kubeconfig = cluster.kubeconfig.read_text()

    def client(_: int) -> bool:
        with KubeClient(kubeconfig, budget=budgets()) as kube:
            return all(kube.namespace_exists("default") for _ in range(REQUESTS_EACH))

    cluster.reset_in_flight()
    with ThreadPoolExecutor(CLIENTS) as pool:
        return list(pool.map(client, range(CLIENTS)))


def test_unbudgeted_clients_flood_the_slow_cluster(slow: DevCluster) -> None:
    """The control: without a budget the same load is served more than LIMIT at once."""
    assert all(read_namespaces_at_once(slow, lambda: UNBOUNDED))
    assert peak_of_kube_clients(slow) > LIMIT


def test_the_slow_cluster_never_serves_more_requests_at_once_than_its_budget(slow: DevCluster) -> None:
    assert all(read_namespaces_at_once(slow, budget()))
    assert 1 <= peak_of_kube_clients(slow) <= LIMIT


def test_a_full_budget_on_the_slow_cluster_leaves_the_fast_clusters_alone(slow: DevCluster, fast: DevCluster) -> None:
    budgets = budget(wait_seconds=0.3)
    holder = budgets()
    with holder.slot(slow.url), holder.slot(slow.url):
        with KubeClient(fast.kubeconfig.read_text(), budget=budgets()) as kube:
            assert kube.namespace_exists("default")
        with KubeClient(slow.kubeconfig.read_text(), budget=budgets()) as kube, pytest.raises(errors.ClusterBusy):
            kube.namespace_exists("default")
    with KubeClient(slow.kubeconfig.read_text(), budget=budgets()) as kube:
        assert kube.namespace_exists("default")


def test_the_workers_budget_counts_in_the_caches_redis_with_the_settings_limit() -> None:
    shared = singletons.request_budget()
    assert isinstance(shared, RedisRequestBudget)
    assert shared.limit == settings.CLUSTER_API_CONCURRENCY
    assert shared.client.ping()


@pytest.mark.django_db
def test_a_pass_finding_its_clusters_share_of_the_worker_taken_gives_its_slot_back(
    fast: DevCluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    worker = pool_share.PoolShare(tmp_path, slots=2)
    monkeypatch.setattr(pool_share, "_worker", worker)
    owner = get_user_model().objects.create_user("budget-owner")
    cluster, _ = (
        ManagedCluster.objects.create(
            name=f"budget-{name}", kubeconfig=fast.kubeconfig.read_text(), base_domain=f"{name}.example.test"
        )
        for name in ("fast", "other")  # a fleet of one cluster has no other to leave slots to
    )
    gateway = Gateway(
        owner=owner, cluster=cluster, name="edge", image="ghcr.io/o/gw:1", supervisor_image="ghcr.io/o/sv:1"
    )
    gateway.assign_namespace()
    gateway.save()
    fast.clear_requests()
    with worker.hold(str(cluster.pk), settings.GATEWAY_CLUSTER_POOL_PERCENT) as held:
        assert held
        ended, again = run_pass(str(gateway.pk))
    assert ended == PassOutcome.SKIPPED
    assert again is not None and CLUSTER_BUSY_SECONDS <= again <= 2 * CLUSTER_BUSY_SECONDS
    assert Gateway.objects.get(pk=gateway.pk).lease_owner == ""
    assert fast.requests() == []
