"""``--for`` conditions and polling with a deadline (on a fake clock)."""

from __future__ import annotations

import pytest

from cpctl.exits import TIMEOUT, USAGE, CliError
from cpctl.waiting import Wanted, parse_wanted, poll
from tests.helpers import FakeClock

PHASES = ["Pending", "Running", "Failed"]


def test_parse_wanted() -> None:
    assert parse_wanted("phase=Running", PHASES) == Wanted("Running")
    assert parse_wanted("delete", PHASES) == Wanted(None)
    assert str(Wanted("Running")) == "phase=Running" and str(Wanted(None)) == "delete"


@pytest.mark.parametrize("text", ["phase=running", "Running", "status=Running", "phase=", ""])
def test_other_conditions_are_usage_errors(text: str) -> None:
    with pytest.raises(CliError) as raised:
        parse_wanted(text, PHASES)
    assert raised.value.exit_code == USAGE


def test_poll_returns_the_first_result() -> None:
    clock, answers = FakeClock(), iter([None, None, "done"])
    assert poll(lambda: next(answers), "it", timeout=10, interval=2, clock=clock, sleep=clock.sleep) == "done"
    assert clock.pauses == [2, 2]


def test_poll_times_out_with_exit_4_without_oversleeping() -> None:
    clock = FakeClock()
    with pytest.raises(CliError) as raised:
        poll(lambda: None, "the gateway", timeout=5, interval=2, clock=clock, sleep=clock.sleep)
    assert raised.value.exit_code == TIMEOUT and raised.value.message == "timed out after 5s waiting for the gateway"
    assert clock.pauses == [2, 2, 1]
