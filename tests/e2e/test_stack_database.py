"""The live stack runs on a database of its own, which nothing truncates under it, and a test's rows go with it."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from django.contrib.auth import get_user_model
from django.db import connection

from tests.fixtures.cleanup import Cleanup
from tests.fixtures.stack import ApiSession, Stack
from tests.fixtures.stack_database import KEEPER, StackDatabase


def test_the_stack_is_not_on_the_database_pytest_flushes(live_stack: Stack, stack_database: StackDatabase) -> None:
    served = urlsplit(live_stack.env["DATABASE_URL"]).path.lstrip("/")
    assert served == stack_database.name != connection.settings_dict["NAME"]  # pytest-django's test database


def test_a_stack_test_reads_the_stacks_database_in_autocommit(stack_database: StackDatabase, stack_db: Cleanup) -> None:
    assert connection.settings_dict["NAME"] == stack_database.name
    assert not connection.in_atomic_block  # no test transaction to roll back, and no flush after it
    assert get_user_model().objects.filter(username=KEEPER).exists()  # made with the database, never truncated


def test_what_a_test_made_is_gone_after_it(api_session: Callable[..., ApiSession], stack_db: Cleanup) -> None:
    made = api_session("made-here")
    assert made.username.startswith("made-here-") and stack_db.new("auth", "User")
    stack_db.undo()
    assert not stack_db.new("auth", "User") and not get_user_model().objects.filter(username=made.username).exists()
