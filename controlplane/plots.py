"""The console's plots as numbers (pure): samples bucketed over a time window, scaled to SVG coordinates.

Nothing here draws. The templates render SVG from what these functions return: path data for the
lines of a time series, and segments for a stacked bar. Coordinates are SVG user units, y growing
downwards; numbers are rounded to one decimal place so the markup stays short.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

__all__ = [
    "WINDOWS",
    "Box",
    "Segment",
    "Window",
    "bucket_series",
    "choose_window",
    "fmt",
    "latest",
    "line_path",
    "nice_ceiling",
    "stacked_segments",
    "y_ticks",
]


@dataclass(frozen=True)
class Window:
    """The stretch of time a plot covers, cut into ``buckets`` equal slices."""

    span: timedelta
    buckets: int
    label: str


WINDOWS = (
    Window(timedelta(hours=1), 60, "last hour"),
    Window(timedelta(hours=6), 72, "last 6 hours"),
    Window(timedelta(hours=24), 96, "last 24 hours"),
)


def choose_window(oldest: datetime | None, now: datetime, windows: Sequence[Window] = WINDOWS) -> Window:
    """The shortest window that reaches back to the oldest sample; the longest when none does."""
    for window in windows:
        if oldest is not None and oldest >= now - window.span:
            return window
    return windows[-1]


def bucket_series(
    samples: Iterable[tuple[datetime, Mapping[str, int]]],
    keys: Sequence[str],
    start: datetime,
    end: datetime,
    buckets: int,
) -> dict[str, list[int | None]]:
    """Each key's value in each of ``buckets`` equal slices of ``[start, end)``.

    A slice holds the value of its latest sample (the counts are gauges); a slice without a sample is
    None. A key missing from a sample counts 0 there. Samples outside the window are ignored.
    """
    step = (end - start) / buckets
    chosen: list[tuple[datetime, Mapping[str, int]] | None] = [None] * buckets
    for at, counts in samples:
        if not start <= at < end:
            continue
        index = min(int((at - start) / step), buckets - 1)
        current = chosen[index]
        if current is None or at >= current[0]:
            chosen[index] = (at, counts)
    return {key: [None if sample is None else int(sample[1].get(key, 0)) for sample in chosen] for key in keys}


def latest(values: Sequence[int | None]) -> int | None:
    """The newest known value."""
    return next((value for value in reversed(values) if value is not None), None)


def nice_ceiling(value: float) -> int:
    """The smallest 1, 2 or 5 times a power of ten that is at least ``value`` (and at least 1)."""
    scale = 1
    while True:
        for factor in (1, 2, 5):
            if factor * scale >= value:
                return factor * scale
        scale *= 10


def y_ticks(top: int) -> list[int]:
    """Gridline values: 0, the middle when it is a whole number, and the top."""
    return [0, top // 2, top] if top % 2 == 0 and top > 1 else [0, top]


def fmt(value: float) -> str:
    """A coordinate for the markup: at most one decimal place, no trailing zero."""
    rounded = round(value, 1)
    return str(int(rounded)) if rounded == int(rounded) else str(rounded)


@dataclass(frozen=True)
class Box:
    """The plotting area inside an SVG, in user units."""

    left: float
    top: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.left + self.width

    @property
    def bottom(self) -> float:
        return self.top + self.height

    def x(self, index: int, count: int) -> float:
        """Bucket ``index`` of ``count`` ends at this x: the last bucket ends at the right edge (now)."""
        return self.left + self.width * (index + 1) / count

    def y(self, value: float, top_value: float) -> float:
        return self.bottom - self.height * value / top_value


def line_path(values: Sequence[int | None], box: Box, top_value: int, bridge: int = 1) -> str:
    """SVG path data through the known values, left to right.

    Up to ``bridge`` missing buckets between two known values are drawn across (a late sample leaves
    no hole); a longer gap lifts the pen. A lone point is a zero-length segment, which a round line
    cap shows as a dot. No known value gives an empty string.
    """
    runs: list[list[tuple[float, float]]] = []
    missing = bridge + 1
    for index, value in enumerate(values):
        if value is None:
            missing += 1
            continue
        point = (box.x(index, len(values)), box.y(value, top_value))
        if missing > bridge or not runs:
            runs.append([point])
        else:
            runs[-1].append(point)
        missing = 0
    parts = []
    for run in runs:
        (x, y), rest = run[0], run[1:]
        parts.append(f"M{fmt(x)} {fmt(y)}")
        if rest:
            parts.extend(f"L{fmt(x)} {fmt(y)}" for x, y in rest)
        else:
            parts.append("h0")
    return " ".join(parts)


@dataclass(frozen=True)
class Segment:
    """One part of a stacked bar: ``count`` items drawn from ``x`` over ``width``."""

    key: str
    count: int
    x: float
    width: float


def stacked_segments(counts: Sequence[tuple[str, int]], width: float) -> list[Segment]:
    """One segment per non-zero count, in the order given, sized in proportion; together they span ``width``.

    Each edge is placed from the running total, so rounding never leaves a gap or an overlap.
    """
    total = sum(count for _key, count in counts)
    if total <= 0:
        return []
    segments = []
    running = 0
    for key, count in counts:
        if count <= 0:
            continue
        x = round(width * running / total, 1)
        running += count
        segments.append(Segment(key, count, x, round(round(width * running / total, 1) - x, 1)))
    return segments
