"""Kubernetes' own words: ``metav1.ConditionStatus`` and ``core/v1`` Event types."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["ConditionStatus", "EventType"]


class ConditionStatus(StrEnum):
    TRUE = "True"
    FALSE = "False"
    UNKNOWN = "Unknown"


class EventType(StrEnum):
    NORMAL = "Normal"
    WARNING = "Warning"
