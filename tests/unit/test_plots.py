"""The console's plot arithmetic (pure): windows, bucketing, scaling, line paths and stacked segments."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from controlplane.plots import (
    WINDOWS,
    Box,
    Segment,
    bucket_series,
    choose_window,
    fmt,
    latest,
    line_path,
    nice_ceiling,
    stacked_segments,
    y_ticks,
)

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
BOX = Box(left=10, top=0, width=100, height=50)


@pytest.mark.parametrize(
    ("age", "label"),
    [
        (None, "last 24 hours"),
        (timedelta(minutes=3), "last hour"),
        (timedelta(hours=1), "last hour"),
        (timedelta(hours=1, seconds=1), "last 6 hours"),
        (timedelta(hours=23), "last 24 hours"),
        (timedelta(days=6), "last 24 hours"),
    ],
)
def test_the_window_is_the_shortest_that_reaches_the_oldest_sample(age, label) -> None:
    oldest = None if age is None else NOW - age
    assert choose_window(oldest, NOW).label == label


def test_windows_grow() -> None:
    assert [w.span for w in WINDOWS] == sorted(w.span for w in WINDOWS)


def test_a_bucket_holds_its_latest_sample_and_an_empty_bucket_is_none() -> None:
    start = NOW - timedelta(minutes=4)
    samples = [
        (start + timedelta(seconds=10), {"Running": 1}),
        (start + timedelta(seconds=50), {"Running": 2, "Failed": 1}),  # later in the same bucket: wins
        (start + timedelta(minutes=3, seconds=5), {"Failed": 3}),  # Running missing: 0
        (start - timedelta(seconds=1), {"Running": 99}),  # before the window
        (NOW, {"Running": 99}),  # the window ends before now
    ]
    series = bucket_series(samples, ["Running", "Failed", "Pending"], start, NOW, 4)
    assert series == {
        "Running": [2, None, None, 0],
        "Failed": [1, None, None, 3],
        "Pending": [0, None, None, 0],
    }


def test_bucketing_ignores_the_order_of_samples() -> None:
    start = NOW - timedelta(minutes=1)
    samples = [(start + timedelta(seconds=40), {"Running": 5}), (start + timedelta(seconds=20), {"Running": 4})]
    assert bucket_series(samples, ["Running"], start, NOW, 1) == {"Running": [5]}


@pytest.mark.parametrize(
    ("value", "ceiling"), [(0, 1), (1, 1), (2, 2), (3, 5), (5, 5), (6, 10), (11, 20), (21, 50), (51, 100), (2001, 5000)]
)
def test_nice_ceiling(value, ceiling) -> None:
    assert nice_ceiling(value) == ceiling


@pytest.mark.parametrize(("top", "ticks"), [(1, [0, 1]), (2, [0, 1, 2]), (5, [0, 5]), (10, [0, 5, 10])])
def test_y_ticks(top, ticks) -> None:
    assert y_ticks(top) == ticks


def test_latest_is_the_newest_known_value() -> None:
    assert latest([1, 2, None]) == 2
    assert latest([None, None]) is None


def test_box_scales_bucket_ends_and_values() -> None:
    assert BOX.x(0, 4) == 35 and BOX.x(3, 4) == BOX.right == 110
    assert BOX.y(0, 10) == BOX.bottom == 50 and BOX.y(10, 10) == 0 and BOX.y(4, 10) == 30


def test_a_line_runs_through_each_known_value() -> None:
    assert line_path([0, 5, 10, 5], BOX, 10) == "M35 50 L60 25 L85 0 L110 25"


def test_one_missing_bucket_is_bridged_and_a_longer_gap_lifts_the_pen() -> None:
    assert line_path([0, None, 10, None], BOX, 10) == "M35 50 L85 0"
    path = line_path([10, None, None, 0, None, None, None, None, None, 10], Box(0, 0, 100, 10), 10)
    assert path == "M10 0 h0 M40 10 h0 M100 0 h0"


def test_a_lone_point_is_a_dot_and_no_value_is_no_path() -> None:
    assert line_path([None, None, 5, None, None], Box(0, 0, 50, 10), 10) == "M30 5 h0"
    assert line_path([None, None], BOX, 10) == ""


def test_coordinates_keep_one_decimal() -> None:
    assert fmt(1 / 3) == "0.3" and fmt(2.0) == "2" and fmt(2.96) == "3"
    assert line_path([1, 2, 3], Box(0, 0, 100, 100), 3) == "M33.3 66.7 L66.7 33.3 L100 0"


def test_stacked_segments_follow_the_order_and_skip_zeros() -> None:
    segments = stacked_segments([("healthy", 2), ("failed", 0), ("pending", 1), ("upgrading", 1)], 400)
    assert segments == [
        Segment("healthy", 2, 0, 200),
        Segment("pending", 1, 200, 100),
        Segment("upgrading", 1, 300, 100),
    ]


def test_stacked_segments_leave_no_gap_when_rounding() -> None:
    segments = stacked_segments([("a", 1), ("b", 1), ("c", 1)], 100)
    assert [(s.x, s.width) for s in segments] == [(0, 33.3), (33.3, 33.4), (66.7, 33.3)]
    assert round(segments[-1].x + segments[-1].width, 1) == 100


def test_stacked_segments_of_nothing() -> None:
    assert stacked_segments([("a", 0)], 100) == []
    assert stacked_segments([], 100) == []
