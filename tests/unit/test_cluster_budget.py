"""A cluster's budget, the pure parts: waiting for an API request slot, and one cluster's share of a worker's pool."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import FakeClock
from workers.drivers.request_budget import FIRST_PAUSE_SECONDS, LONGEST_PAUSE_SECONDS, wait_for_slot
from workers.pool_share import PoolShare, share_of


def answers(*results: bool):
    remaining = list(results)
    return lambda: remaining.pop(0)


def test_a_free_slot_is_taken_without_a_pause() -> None:
    clock = FakeClock()
    assert wait_for_slot(answers(True), 5.0, clock=clock, sleep=clock.sleep, jitter=lambda: 0.0)
    assert clock.pauses == []


def test_a_full_budget_is_tried_again_with_doubling_pauses_up_to_the_longest() -> None:
    clock = FakeClock()
    tries = [False] * 8 + [True]
    assert wait_for_slot(answers(*tries), 60.0, clock=clock, sleep=clock.sleep, jitter=lambda: 0.0)
    expected = [min(FIRST_PAUSE_SECONDS * 2**n, LONGEST_PAUSE_SECONDS) for n in range(8)]
    assert clock.pauses == pytest.approx(expected)


def test_a_budget_full_for_the_whole_wait_gives_up_at_the_deadline() -> None:
    clock = FakeClock()
    assert not wait_for_slot(lambda: False, 1.0, clock=clock, sleep=clock.sleep, jitter=lambda: 1.0)
    assert clock.now == pytest.approx(1.0)
    assert max(clock.pauses) <= LONGEST_PAUSE_SECONDS * 1.5


@pytest.mark.parametrize(
    ("slots", "percent", "share"),
    [(1, 50, 1), (2, 50, 1), (4, 50, 2), (5, 50, 2), (8, 25, 2), (3, 1, 1), (4, 100, 4)],
)
def test_one_clusters_share_is_the_percent_of_the_pool_rounded_down_and_at_least_one(
    slots: int, percent: int, share: int
) -> None:
    assert share_of(slots, percent) == share


def test_a_cluster_holds_no_more_than_its_share_and_a_freed_slot_is_taken_again(tmp_path: Path) -> None:
    pool = PoolShare(tmp_path, slots=4)
    with pool.hold("slow", 50) as first, pool.hold("slow", 50) as second:
        assert (first, second) == (True, True)
        with pool.hold("slow", 50) as third, pool.hold("fast", 50) as other:
            assert third is False
            assert other is True
    with pool.hold("slow", 50) as again:
        assert again is True


def test_a_share_as_large_as_the_pool_reserves_nothing(tmp_path: Path) -> None:
    pool = PoolShare(tmp_path, slots=1)
    with pool.hold("only", 50) as first, pool.hold("only", 50) as second:
        assert (first, second) == (True, True)
    assert list(tmp_path.iterdir()) == []
