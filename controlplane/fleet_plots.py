"""The dashboard's fleet plots: gateways by phase over time, one small chart per cluster.

Reads the ``FleetSample`` rows of the chosen window and hands ``controlplane.plots`` the numbers; the
template (``admin/controlplane/fleet_plots.html``) draws the SVG. The phases come from the caller
(the gateways app owns them), one ``PhaseLine`` each.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, NamedTuple

from django.conf import settings

from controlplane.models import FleetSample, ManagedCluster
from controlplane.plots import WINDOWS, Box, bucket_series, choose_window, fmt, latest, line_path, nice_ceiling, y_ticks

__all__ = ["CHARTS_SHOWN", "PhaseLine", "fleet_plots"]

CHARTS_SHOWN = 12
WIDTH, HEIGHT = 360, 150
BOX = Box(left=34, top=8, width=318, height=116)


class PhaseLine(NamedTuple):
    """One phase's line on every chart: the value counted, its legend label and tone, and whether it is dashed."""

    value: str
    label: str
    tone: str
    dashed: bool = False


def _within(seconds: int) -> str:
    if seconds == 60:
        return "a minute"
    return f"{seconds // 60} minutes" if seconds % 60 == 0 else f"{seconds} seconds"


def _frame() -> dict[str, str]:
    """The fixed geometry the template draws the axes with."""
    return {
        "width": str(WIDTH),
        "height": str(HEIGHT),
        "left": fmt(BOX.left),
        "right": fmt(BOX.right),
        "bottom": fmt(BOX.bottom),
        "tick_x": fmt(BOX.left - 5),
        "label_y": fmt(HEIGHT - 8),
    }


def fleet_plots(now: datetime, phases: Sequence[PhaseLine]) -> dict[str, Any]:
    """The template's context: one chart per cluster with samples in the window (at most CHARTS_SHOWN)."""
    legend: list[dict[str, Any]] = [
        {"phase": line.value, "label": line.label, "tone": line.tone, "dashed": line.dashed} for line in phases
    ]
    context: dict[str, Any] = {
        "frame": _frame(),
        "legend": legend,
        "charts": [],
        "more": 0,
        "within": _within(settings.FLEET_SAMPLE_INTERVAL_SECONDS),
    }
    oldest = FleetSample.objects.filter(at__gte=now - WINDOWS[-1].span).order_by("at").first()
    if oldest is None:
        return context
    window = choose_window(oldest.at, now)
    start = now - window.span
    clusters = list(
        ManagedCluster.objects.filter(id__in=FleetSample.objects.filter(at__gte=start).values("cluster_id"))
        .order_by("name")
        .values_list("id", "name")
    )
    shown = dict(clusters[:CHARTS_SHOWN])
    samples: dict[Any, list[tuple[datetime, Mapping[str, int]]]] = defaultdict(list)
    rows = FleetSample.objects.filter(at__gte=start, cluster_id__in=shown).values_list("cluster_id", "at", "counts")
    for cluster_id, at, counts in rows.iterator(chunk_size=2000):
        samples[cluster_id].append((at, counts))
    keys = [line.value for line in phases]
    for cluster_id, name in shown.items():
        series = bucket_series(samples[cluster_id], keys, start, now, window.buckets)
        top = nice_ceiling(max((v for values in series.values() for v in values if v is not None), default=0))
        context["charts"].append(
            {
                "cluster": name,
                "ticks": [{"value": tick, "y": fmt(BOX.y(tick, top))} for tick in y_ticks(top)],
                "series": [
                    {
                        **entry,
                        "d": line_path(series[entry["phase"]], BOX, top),
                        "latest": latest(series[entry["phase"]]),
                    }
                    for entry in legend
                ],
            }
        )
    hours = int(window.span.total_seconds() // 3600)
    context.update(window_label=window.label, since=f"{hours} h ago", more=len(clusters) - len(shown))
    return context
