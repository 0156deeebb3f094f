"""Rollout status aggregation (pure): counts by state per wave and in total, the worst first, the blockers."""

from __future__ import annotations

import pytest

from rollouts.status import TargetRow, counts, summarise, worst


@pytest.mark.parametrize(
    ("states", "expected"),
    [
        ([], None),
        (["healthy", "healthy"], "healthy"),
        (["healthy", "skipped"], "skipped"),
        (["healthy", "pending"], "pending"),
        (["pending", "upgrading", "healthy"], "upgrading"),
        (["upgrading", "rolled_back"], "rolled_back"),
        (["rolled_back", "failed", "healthy"], "failed"),
    ],
)
def test_worst_ranks_failed_over_rolled_back_over_upgrading_over_pending_over_healthy(states, expected) -> None:
    assert worst(states) == expected


def test_counts_list_every_state_worst_first() -> None:
    assert list(counts(["healthy", "failed", "healthy"]).items()) == [
        ("failed", 1),
        ("rolled_back", 0),
        ("upgrading", 0),
        ("pending", 0),
        ("skipped", 0),
        ("healthy", 2),
    ]


def test_summary_per_wave_in_total_and_the_blockers() -> None:
    rows = [
        TargetRow("a", "east", 0, "rolled_back", "Not Ready within 5s"),
        TargetRow("b", "west", 0, "healthy"),
        TargetRow("c", "east", 1, "pending"),
    ]
    summary = summarise(rows, wave_count=2, current_wave=0)
    assert summary["total"]["worst"] == "rolled_back" and summary["total"]["size"] == 3
    first, second = summary["waves"]
    assert (first["canary"], first["current"], first["clusters"], first["worst"]) == (
        True,
        True,
        ["east", "west"],
        "rolled_back",
    )
    assert (second["canary"], second["worst"], second["counts"]["pending"]) == (False, "pending", 1)
    assert summary["blocked"] == [
        {"gateway": "a", "cluster": "east", "wave": 0, "state": "rolled_back", "reason": "Not Ready within 5s"}
    ]
