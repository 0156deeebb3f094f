"""A gateway chart as the worker loaded it, and what a pass takes from the gateway's chart release (plain data).

Shared by the gateway reconciler, which installs the chart, and by the release handling the rollout controller
uses to validate a target release, so that neither imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

__all__ = ["Chart", "ReleaseInputs"]


@dataclass(frozen=True)
class Chart:
    """The gateway chart, loaded once per worker: where it is, its version, and its default values."""

    ref: str
    version: str | None
    chart_version: str
    defaults: dict[str, Any] = field(repr=False)


@dataclass(frozen=True)
class ReleaseInputs:
    """What a pass takes from the gateway's chart release: its id, its values overrides, and why it is unusable."""

    release_id: str
    overrides: dict[str, Any] = field(default_factory=dict)
    problem: str | None = None  # set for an Invalid release: the pass stalls instead of running helm
    # Set while the release's remote chart cannot be pulled: the pass waits until ``retry_at``, then tries again.
    unavailable: str | None = None
    retry_at: datetime | None = None
    # Set while a release with a signature policy does not verify with its current keys: nothing more runs from it
    # (no install, no upgrade), and what runs keeps running.
    unverified: str | None = None
    # The gateway's Verified condition (status, reason, message); None for a release without a signature policy.
    verified: tuple[str, str, str] | None = None
