"""A rollout's progress chart (pure): one stacked bar per wave, from the wave summaries the table shows."""

from __future__ import annotations

from rollouts.progress_plot import BAR_WIDTH, LABEL_WIDTH, PROGRESS_ORDER, wave_bars
from rollouts.status import TargetRow, summarise

TONES = {
    "healthy": "ok",
    "failed": "error",
    "rolled_back": "warn",
    "upgrading": "info",
    "pending": "muted",
    "skipped": "faint",
}


def rows() -> list[TargetRow]:
    states = {0: ["healthy", "healthy", "failed", "rolled_back"], 1: ["upgrading", "pending", "pending", "skipped"]}
    return [TargetRow(f"g{w}{i}", "east", w, state) for w, wave in states.items() for i, state in enumerate(wave)]


def test_a_bar_per_wave_from_done_to_waiting() -> None:
    chart = wave_bars(summarise(rows(), wave_count=3, current_wave=1)["waves"], TONES)
    assert [bar["label"] for bar in chart["bars"]] == ["Wave 0 (canary)", "Wave 1", "Wave 2"]
    assert [bar["current"] for bar in chart["bars"]] == [False, True, False]
    canary, second, empty = chart["bars"]
    quarter = BAR_WIDTH / 4
    assert [(s["state"], s["count"], s["tone"], s["x"], s["width"]) for s in canary["segments"]] == [
        ("healthy", 2, "ok", str(LABEL_WIDTH), str(int(2 * quarter))),
        ("rolled_back", 1, "warn", str(int(LABEL_WIDTH + 2 * quarter)), str(int(quarter))),
        ("failed", 1, "error", str(int(LABEL_WIDTH + 3 * quarter)), str(int(quarter))),
    ]
    assert [(s["state"], s["count"]) for s in second["segments"]] == [("skipped", 1), ("upgrading", 1), ("pending", 2)]
    assert (canary["done"], canary["size"], second["done"], second["size"]) == (2, 4, 1, 4)
    assert empty["segments"] == [] and empty["size"] == 0


def test_rows_are_stacked_down_the_chart() -> None:
    chart = wave_bars(summarise(rows(), wave_count=2, current_wave=0)["waves"], TONES)
    assert [bar["y"] for bar in chart["bars"]] == ["4", "30"]
    assert [bar["text_y"] for bar in chart["bars"]] == ["12", "38"]
    assert chart["height"] == "50"  # the last bar's bottom (30 + 16) plus the padding


def test_the_legend_lists_every_state_in_bar_order() -> None:
    chart = wave_bars([], TONES)
    assert [entry["state"] for entry in chart["legend"]] == [str(s) for s in PROGRESS_ORDER]
    assert chart["bars"] == []
