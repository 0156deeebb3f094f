"""Shared fixtures: users and token-authenticated API clients, and a registered cluster."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from controlplane.api import authentication, counting
from controlplane.models import ManagedCluster
from tests.helpers import KUBECONFIG

pytest_plugins = [
    "tests.fixtures.charts", "tests.fixtures.devcluster", "tests.fixtures.registry", "tests.fixtures.s3",
    "tests.fixtures.stack",
    "tests.fixtures.registry_proxy", "tests.fixtures.token_auth", "tests.fixtures.receiver",
]

# Suites that run against the live stack. It lives for the rest of the session once started, and its
# worker and beat reconcile every cluster in the shared test database, so these run last.
LIVE_STACK_SUITES = ("browser", "contract", "e2e")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Keep the in-process suites ahead of the live stack (a stable sort keeps every other order)."""
    tests_dir = Path(__file__).parent
    items.sort(key=lambda item: Path(str(item.path)).relative_to(tests_dir).parts[0] in LIVE_STACK_SUITES)


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
