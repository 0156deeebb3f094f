"""The sliding-window rate estimate: admits up to the limit, and its retry times are when one would pass."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controlplane.api.rate_window import judge, window_of
from controlplane.api.throttling import LocalCounters


def test_a_fresh_client_gets_exactly_the_limit_in_one_window() -> None:
    counts = {"previous": 0, "current": 0}
    admitted = 0
    for _ in range(10):
        verdict = judge(3, 60, counts["previous"], counts["current"], now=600.0 + 1)
        if verdict.allowed:
            counts["current"] += 1
            admitted += 1
    assert admitted == 3


def test_the_previous_window_weighs_by_its_overlap() -> None:
    # Halfway through a window, 10 in the last one count as 5: 4 more fit under a limit of 10, not 10.
    assert judge(10, 60, previous=10, current=4, now=30.0).allowed
    assert not judge(10, 60, previous=10, current=5, now=30.0).allowed
    assert judge(10, 60, previous=10, current=9, now=59.9).allowed


@pytest.mark.parametrize(
    ("previous", "current", "now", "expected"),
    [
        (10, 5, 30.0, 0.001),  # exactly at the limit: just after now, the previous count has faded enough
        (10, 5, 18.0, 12.001),  # 10 * (1 - 18/60) + 5 = 12: two more seconds of fading per request over
        (30, 9, 50.0, 8.001),  # 30 * (10/60) + 9 = 14 fades below 10 eight seconds on
        (0, 10, 50.0, 10.001),  # the count is the limit: it fades from the next window's start
        (0, 20, 15.0, 45.0 + 30.001),  # a count twice the limit fades to the limit halfway through the next window
    ],
)
def test_retry_after_is_when_the_estimate_drops_below_the_limit(previous, current, now, expected) -> None:
    verdict = judge(10, 60, previous, current, now)
    assert not verdict.allowed
    assert verdict.retry_after == pytest.approx(expected)


@given(
    limit=st.integers(1, 1000),
    previous=st.integers(0, 5000),
    current=st.integers(0, 5000),
    now=st.floats(0, 10**6, allow_nan=False),
    duration=st.sampled_from([1, 60, 3600, 86400]),
)
def test_a_refusal_always_names_a_time_that_admits(limit, previous, current, now, duration) -> None:
    verdict = judge(limit, duration, previous, current, now)
    if verdict.allowed:
        return
    assert 0 < verdict.retry_after <= 2 * duration
    later = now + verdict.retry_after
    gap = window_of(later, duration) - window_of(now, duration)
    before, during = {0: (previous, current), 1: (current, 0)}.get(gap, (0, 0))
    assert judge(limit, duration, before, during, later).allowed


def test_local_counters_count_take_back_expire_and_stay_bounded() -> None:
    counters = LocalCounters(max_keys=2)
    assert counters.count(("x", "a"), ttl=60) == (0, 0)
    assert counters.count(("x", "a"), ttl=60) == (0, 1)
    counters.uncount("a", ttl=60)
    assert counters.count(("x", "a"), ttl=60) == (0, 1), "a refused request is taken back"
    counters.count(("x", "b"), ttl=0)
    assert counters.count(("a", "b"), ttl=60) == (2, 0), "b expired at once"
    counters.count(("x", "c"), ttl=60)
    assert counters.count(("a", "c"), ttl=60) == (0, 1), "a went, as the oldest past max_keys"
