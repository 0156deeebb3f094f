"""A rollout's progress as a chart (pure): one horizontal stacked bar per wave, from the wave summaries.

The input is ``rollouts.status.summarise(...)["waves"]``, the same counts the wave table shows. Bars
read left to right from done to waiting: healthy, skipped, rolled back, failed, upgrading, pending.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from controlplane.plots import fmt, stacked_segments
from rollouts.choices import TargetState

__all__ = ["PROGRESS_ORDER", "wave_bars"]

PROGRESS_ORDER = (
    TargetState.HEALTHY,
    TargetState.SKIPPED,
    TargetState.ROLLED_BACK,
    TargetState.FAILED,
    TargetState.UPGRADING,
    TargetState.PENDING,
)
DONE = (TargetState.HEALTHY, TargetState.SKIPPED)
WIDTH, LABEL_WIDTH, COUNT_WIDTH = 560, 96, 56
ROW_HEIGHT, BAR_HEIGHT, PAD = 26, 16, 4
BAR_WIDTH = WIDTH - LABEL_WIDTH - COUNT_WIDTH


def wave_bars(waves: Sequence[Mapping[str, Any]], tones: Mapping[str, str]) -> dict[str, Any]:
    """The chart's geometry: the SVG size, and per wave its bar's segments with their tones (formatted numbers)."""
    bars = []
    for row, wave in enumerate(waves):
        counts = [(str(state), int(wave["counts"].get(state, 0))) for state in PROGRESS_ORDER]
        y = PAD + row * ROW_HEIGHT
        bars.append(
            {
                "index": wave["index"],
                "label": f"Wave {wave['index']}" + (" (canary)" if wave.get("canary") else ""),
                "current": bool(wave.get("current")),
                "y": fmt(y),
                "text_y": fmt(y + BAR_HEIGHT / 2),
                "done": sum(n for state, n in counts if state in DONE),
                "size": sum(n for _state, n in counts),
                "segments": [
                    {
                        "state": s.key,
                        "count": s.count,
                        "tone": tones.get(s.key, "muted"),
                        "x": fmt(LABEL_WIDTH + s.x),
                        "width": fmt(s.width),
                    }
                    for s in stacked_segments(counts, BAR_WIDTH)
                ],
            }
        )
    return {
        "width": str(WIDTH),
        "height": fmt(2 * PAD + len(waves) * ROW_HEIGHT - (ROW_HEIGHT - BAR_HEIGHT)),
        "bar_x": fmt(LABEL_WIDTH),
        "bar_width": fmt(BAR_WIDTH),
        "bar_height": fmt(BAR_HEIGHT),
        "count_x": fmt(WIDTH),
        "bars": bars,
        "legend": [{"state": str(state), "tone": tones.get(state, "muted")} for state in PROGRESS_ORDER],
    }
