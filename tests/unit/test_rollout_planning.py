"""Wave planning (pure): percentages interleave clusters, cluster groups are explicit, bad input is refused."""

from __future__ import annotations

import pytest

from rollouts.planning import Candidate, PlanError, plan_waves


def fleet(per_cluster: dict[str, int]) -> list[Candidate]:
    return [Candidate(f"{c}-{i}", f"gw{i:02d}", c) for c, n in per_cluster.items() for i in range(n)]


@pytest.mark.parametrize(
    ("sizes", "percentages", "expected"),
    [
        ({"a": 5, "b": 5}, [10, 100], [1, 9]),
        ({"a": 5, "b": 5}, [10, 50, 100], [1, 4, 5]),
        ({"a": 1}, [10, 50, 100], [1]),  # a wave never gets fewer than one gateway; empty ones are dropped
        ({"a": 2, "b": 1}, [1, 2, 100], [1, 1, 1]),
        ({"a": 100}, [], [10, 90]),  # the default: a 10% canary, then the rest
    ],
)
def test_percentages_give_cumulative_waves_of_at_least_one(sizes, percentages, expected) -> None:
    waves = plan_waves(fleet(sizes), percentages=percentages)
    assert [len(w) for w in waves] == expected
    assert sorted(c.id for w in waves for c in w) == sorted(c.id for c in fleet(sizes))


def test_percentage_waves_spread_over_the_clusters() -> None:
    waves = plan_waves(fleet({"a": 4, "b": 4, "c": 4, "d": 4}), percentages=[25, 100])
    assert sorted(c.cluster for c in waves[0]) == ["a", "b", "c", "d"]


def test_cluster_groups_are_waves_in_order_and_empty_groups_are_dropped() -> None:
    waves = plan_waves(fleet({"a": 2, "b": 3, "c": 1}), cluster_waves=[["c"], ["x"], ["a", "b"]])
    assert [sorted({c.cluster for c in w}) for w in waves] == [["c"], ["a", "b"]]
    assert [len(w) for w in waves] == [1, 5]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"percentages": [50, 40, 100]}, "strictly increasing"),
        ({"percentages": [10, 90]}, "ending at 100"),
        ({"percentages": [0, 100]}, "between 1 and 100"),
        ({"cluster_waves": [["a"]]}, "clusters in no wave: b"),
        ({"cluster_waves": [["a", "b"], ["b"]]}, "more than one wave"),
        ({"cluster_waves": [["a", "b"]], "percentages": [100]}, "not both"),
    ],
)
def test_bad_wave_plans_are_refused(kwargs, message) -> None:
    with pytest.raises(PlanError, match=message):
        plan_waves(fleet({"a": 1, "b": 1}), **kwargs)


def test_an_empty_selection_is_refused() -> None:
    with pytest.raises(PlanError, match="matches no gateway"):
        plan_waves([])
