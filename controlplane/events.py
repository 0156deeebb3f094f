"""The reasons of a cluster's events (no Django); their types are Kubernetes' (``cluster_vocabulary.kubernetes``)."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["ClusterReason"]


class ClusterReason(StrEnum):
    """The reasons of a cluster's events: its circuit breaker opening and closing."""

    UNREACHABLE = "Unreachable"
    REACHABLE = "Reachable"
