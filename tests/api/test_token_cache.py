"""The per-process token cache: a fresh entry skips the token query; revocations here act at once, and
elsewhere within API_TOKEN_CACHE_SECONDS."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token

from controlplane.api import authentication

pytestmark = pytest.mark.django_db


def token_queries(client, path: str = "/api/v1/gateways/") -> tuple[int, int]:
    """(status, how many token lookups the request ran)."""
    with CaptureQueriesContext(connection) as queries:
        status = client.get(path).status_code
    return status, sum('FROM "authtoken_token"' in q["sql"] for q in queries.captured_queries)


@pytest.fixture
def now(monkeypatch) -> list[float]:
    clock = [1000.0]
    monkeypatch.setattr(authentication, "clock", lambda: clock[0])
    return clock


def test_a_known_token_is_answered_from_memory_until_its_entry_expires(alice_api, settings, now) -> None:
    settings.API_TOKEN_CACHE_SECONDS = 10
    assert token_queries(alice_api) == (200, 1)
    assert token_queries(alice_api) == (200, 0)
    now[0] += 9.9
    assert token_queries(alice_api) == (200, 0)
    now[0] += 0.2
    assert token_queries(alice_api) == (200, 1)


def test_a_token_deleted_by_another_process_is_refused_once_the_entry_expires(alice_api, alice, settings, now) -> None:
    settings.API_TOKEN_CACHE_SECONDS = 10
    assert token_queries(alice_api) == (200, 1)
    with connection.cursor() as cursor:  # as another process would: no signal reaches this one
        cursor.execute("DELETE FROM authtoken_token WHERE user_id = %s", [alice.pk])
    assert token_queries(alice_api)[0] == 200
    now[0] += 10.1
    assert token_queries(alice_api) == (401, 1)


def test_deleting_a_token_here_takes_effect_at_once(alice_api, alice, settings) -> None:
    settings.API_TOKEN_CACHE_SECONDS = 60
    assert token_queries(alice_api)[0] == 200
    Token.objects.filter(user=alice).delete()
    assert token_queries(alice_api) == (401, 1)


def test_deactivating_the_user_here_takes_effect_at_once(alice_api, bob_api, alice, settings) -> None:
    settings.API_TOKEN_CACHE_SECONDS = 60
    assert token_queries(alice_api)[0] == 200 and token_queries(bob_api)[0] == 200
    alice.is_active = False
    alice.save()
    assert token_queries(alice_api) == (401, 1)
    assert token_queries(bob_api) == (200, 0), "another user's entry stays"


def test_zero_turns_the_cache_off(alice_api, settings) -> None:
    settings.API_TOKEN_CACHE_SECONDS = 0
    assert [token_queries(alice_api) for _ in range(2)] == [(200, 1), (200, 1)]


def test_unknown_tokens_are_never_remembered(client, settings) -> None:
    settings.API_TOKEN_CACHE_SECONDS = 60
    for _ in range(2):
        with CaptureQueriesContext(connection) as queries:
            assert client.get("/api/v1/gateways/", HTTP_AUTHORIZATION="Token nope").status_code == 401
        assert any('FROM "authtoken_token"' in q["sql"] for q in queries.captured_queries)
