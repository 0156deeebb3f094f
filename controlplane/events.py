"""The vocabulary of events shared by every kind (no Django): their types, and the reasons of a cluster's."""

from __future__ import annotations

from enum import StrEnum

from cluster_vocabulary.kubernetes import EventType

__all__ = ["ClusterReason", "EventType"]


class ClusterReason(StrEnum):
    """The reasons of a cluster's events: its circuit breaker opening and closing."""

    UNREACHABLE = "Unreachable"
    REACHABLE = "Reachable"
