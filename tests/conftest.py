"""Shared fixtures: users and token-authenticated API clients, and a registered cluster."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from controlplane.api import authentication, counting
from controlplane.models import ManagedCluster
from tests.helpers import KUBECONFIG
from tests.paths import HELM, KUBECTL, TESTS_DIR

pytest_plugins = [
    "tests.fixtures.charts",
    "tests.fixtures.devcluster",
    "tests.fixtures.registry",
    "tests.fixtures.s3",
    "tests.fixtures.stack_database",
    "tests.fixtures.stack",
    "tests.fixtures.cleanup",
    "tests.fixtures.registry_proxy",
    "tests.fixtures.token_auth",
    "tests.fixtures.receiver",
]


class Tier(StrEnum):
    """What a test needs, from least to most; each test is marked with its folder's tier."""

    PURE = "pure"  # nothing: plain functions, no database
    DB = "db"  # the test database
    CLUSTER = "cluster"  # devcluster, helm, a registry or processes of their own
    STACK = "stack"  # the live stack: API, worker, beat and watcher processes


TIER_OF_FOLDER = {
    "unit": Tier.PURE,
    "api": Tier.DB,
    "cli": Tier.DB,
    "integration": Tier.CLUSTER,
    "bench": Tier.CLUSTER,
    "browser": Tier.STACK,
    "contract": Tier.STACK,
    "e2e": Tier.STACK,
}
DATABASE_FIXTURES = frozenset({"db", "transactional_db", "django_db_setup"})


def tier_of(item: pytest.Item) -> Tier:
    """The tier a test declares with a marker (a benchmark smoke that starts the live stack), else its folder's,
    raised to ``db`` for a test of a database-free folder that asks for the database."""
    declared = [tier for tier in Tier if item.get_closest_marker(tier) is not None]
    if declared:
        return max(declared, key=list(Tier).index)
    tier = TIER_OF_FOLDER.get(Path(str(item.path)).relative_to(TESTS_DIR).parts[0], Tier.CLUSTER)
    if tier is Tier.PURE and DATABASE_FIXTURES & set(getattr(item, "fixturenames", ())):
        return Tier.DB
    return tier


def flushes(item: pytest.Item) -> bool:
    """Whether pytest-django would flush the database after ``item`` (a TRUNCATE of every table)."""
    marker = item.get_closest_marker("django_db")
    transaction = marker is not None and (marker.kwargs.get("transaction") or marker.args[:1] == (True,))
    return "transactional_db" in getattr(item, "fixturenames", ()) or bool(transaction)


def pytest_sessionstart(session: pytest.Session) -> None:
    """A missing pinned tool stops the run before any test: a test that needs it would otherwise fail alone."""
    missing = [str(tool) for tool in (HELM, KUBECTL) if not tool.exists()]
    if missing:
        pytest.exit(f"missing {', '.join(missing)}: run `make setup`", returncode=pytest.ExitCode.USAGE_ERROR)


def pytest_configure(config: pytest.Config) -> None:
    for tier in Tier:
        config.addinivalue_line("markers", f"{tier}: a test of the {tier} tier (set by its folder)")


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test with its tier, and keep the live stack's tests last (once started, its worker and beat
    reconcile every cluster in the test database). The sort is stable, so every other order is kept."""
    for item in items:
        item.add_marker(tier_of(item).value)  # a plain str: xdist sends the keywords to its controller
        if tier_of(item) is Tier.STACK and flushes(item):
            raise pytest.UsageError(f"{item.nodeid}: a stack test asks for stack_db, never a database Django flushes")
    items.sort(key=lambda item: item.get_closest_marker(Tier.STACK) is not None)


@pytest.fixture(autouse=True)
def _fresh_process_caches() -> None:
    """Each test starts with this process's short-lived caches empty: its database does too."""
    authentication.resolved.clear()
    counting.counts.clear()


def _client_for(user: Any) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


@pytest.fixture
def make_user(db: None) -> Callable[..., Any]:
    def make(username: str, *, admin: bool = False) -> Any:
        return get_user_model().objects.create_user(username, is_staff=admin, is_superuser=admin)

    return make


@pytest.fixture
def admin_user(make_user: Callable[..., Any]) -> Any:
    return make_user("platform-admin", admin=True)


@pytest.fixture
def alice(make_user: Callable[..., Any]) -> Any:
    return make_user("alice")


@pytest.fixture
def bob(make_user: Callable[..., Any]) -> Any:
    return make_user("bob")


@pytest.fixture
def admin_api(admin_user: Any) -> APIClient:
    return _client_for(admin_user)


@pytest.fixture
def alice_api(alice: Any) -> APIClient:
    return _client_for(alice)


@pytest.fixture
def bob_api(bob: Any) -> APIClient:
    return _client_for(bob)


@pytest.fixture
def anon_api() -> APIClient:
    return APIClient()


@pytest.fixture
def cluster(db: None) -> ManagedCluster:
    return ManagedCluster.objects.create(name="east", kubeconfig=KUBECONFIG, base_domain="apps.east.example.com")
