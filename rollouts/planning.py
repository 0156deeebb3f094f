"""Plan a rollout's waves (pure: no Django, no I/O).

Two ways to give the waves; the first wave is the canary:

- ``cluster_waves``: explicit groups of cluster names, ``[["east"], ["west", "north"]]``. Every
  selected gateway's cluster must be in exactly one group; groups with no selected gateway are dropped.
- ``percentages``: cumulative shares of the selection, strictly increasing and ending at 100,
  ``[10, 50, 100]``. Gateways are interleaved across clusters first (round robin, by name), so every
  wave spreads over the clusters and the per-cluster helm slots work in parallel. Each wave gets at
  least one gateway.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise, zip_longest

__all__ = ["DEFAULT_PERCENTAGES", "Candidate", "PlanError", "plan_waves"]

DEFAULT_PERCENTAGES = (10, 100)


class PlanError(ValueError):
    """The waves cannot be planned as given; ``field`` is the rollout field at fault."""

    def __init__(self, message: str, field: str = "waves") -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Candidate:
    id: str
    name: str
    cluster: str


def _interleaved(candidates: Sequence[Candidate]) -> list[Candidate]:
    by_cluster: dict[str, list[Candidate]] = {}
    for candidate in sorted(candidates, key=lambda c: (c.cluster, c.name, c.id)):
        by_cluster.setdefault(candidate.cluster, []).append(candidate)
    return [c for row in zip_longest(*by_cluster.values()) for c in row if c is not None]


def _by_percentages(candidates: Sequence[Candidate], percentages: Sequence[int]) -> list[list[Candidate]]:
    if not percentages or any(not 0 < p <= 100 for p in percentages):
        raise PlanError("Percentages must be between 1 and 100.")
    if any(b <= a for a, b in pairwise(percentages)) or percentages[-1] != 100:
        raise PlanError("Percentages are cumulative: strictly increasing, ending at 100.")
    ordered, waves, end = _interleaved(candidates), [], 0
    for share in percentages:
        start, end = end, max(end + 1, math.ceil(len(ordered) * share / 100))
        if ordered[start:end]:
            waves.append(ordered[start:end])
    return waves


def _by_clusters(candidates: Sequence[Candidate], groups: Sequence[Sequence[str]]) -> list[list[Candidate]]:
    wave_of: dict[str, int] = {}
    for index, group in enumerate(groups):
        for cluster in group:
            if cluster in wave_of:
                raise PlanError(f"Cluster {cluster!r} is in more than one wave.")
            wave_of[cluster] = index
    missing = sorted({c.cluster for c in candidates} - set(wave_of))
    if missing:
        raise PlanError(f"Selected gateways run on clusters in no wave: {', '.join(missing)}.")
    waves: list[list[Candidate]] = [[] for _ in groups]
    for candidate in sorted(candidates, key=lambda c: (c.cluster, c.name, c.id)):
        waves[wave_of[candidate.cluster]].append(candidate)
    return [_interleaved(wave) for wave in waves if wave]


def plan_waves(
    candidates: Sequence[Candidate],
    *,
    cluster_waves: Sequence[Sequence[str]] = (),
    percentages: Sequence[int] = (),
) -> list[list[Candidate]]:
    """The waves, in order, each in the order its gateways start; ``DEFAULT_PERCENTAGES`` when neither is given."""
    if not candidates:
        raise PlanError("The selector matches no gateway that is not already on the target release.")
    if cluster_waves and percentages:
        raise PlanError("Give the waves as cluster groups or as percentages, not both.")
    if cluster_waves:
        return _by_clusters(candidates, cluster_waves)
    return _by_percentages(candidates, percentages or DEFAULT_PERCENTAGES)
