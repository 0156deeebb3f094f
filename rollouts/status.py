"""Aggregate a rollout's targets into status (pure): counts by state per wave and in total, worst first.

The worst state ranks ``failed > rolled_back > upgrading > pending > skipped > healthy``
(``rollouts.choices.SEVERITY``): a wave or a rollout is summarised by its worst target, and the
gateways that blocked it (failed or rolled back) are listed with their reasons.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rollouts.choices import SEVERITY, TargetState

__all__ = ["TargetRow", "counts", "summarise", "worst"]

BLOCKING = (TargetState.FAILED, TargetState.ROLLED_BACK)


@dataclass(frozen=True)
class TargetRow:
    gateway: str
    cluster: str
    wave: int
    state: str
    reason: str = ""


def counts(states: Iterable[str]) -> dict[str, int]:
    """Every state, worst first, with how many targets are in it (zeros included)."""
    seen = Counter(states)
    return {str(state): seen.get(state, 0) for state in SEVERITY}


def worst(states: Iterable[str]) -> str | None:
    """The worst state present, or None for no targets."""
    present = set(states)
    return next((str(state) for state in SEVERITY if state in present), None)


def summarise(rows: list[TargetRow], wave_count: int, current_wave: int) -> dict[str, Any]:
    """``{"total": {...}, "waves": [...], "blocked": [...]}`` as the API and the console show it."""
    waves = []
    for index in range(wave_count):
        states = [r.state for r in rows if r.wave == index]
        clusters = sorted({r.cluster for r in rows if r.wave == index})
        waves.append(
            {
                "index": index,
                "canary": index == 0,
                "current": index == current_wave,
                "size": len(states),
                "clusters": clusters,
                "worst": worst(states),
                "counts": counts(states),
            }
        )
    states = [r.state for r in rows]
    return {
        "total": {"size": len(states), "worst": worst(states), "counts": counts(states)},
        "waves": waves,
        "blocked": [
            {"gateway": r.gateway, "cluster": r.cluster, "wave": r.wave, "state": r.state, "reason": r.reason}
            for r in rows
            if r.state in BLOCKING
        ],
    }
