"""Kubernetes' own words, as the API server writes them: ``metav1.ConditionStatus``, ``core/v1`` Event types and
Namespace phases, and the condition types of routes."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["ConditionStatus", "EventType", "NamespacePhase", "RouteConditionType"]


class ConditionStatus(StrEnum):
    TRUE = "True"
    FALSE = "False"
    UNKNOWN = "Unknown"


class EventType(StrEnum):
    NORMAL = "Normal"
    WARNING = "Warning"


class NamespacePhase(StrEnum):
    ACTIVE = "Active"
    TERMINATING = "Terminating"


class RouteConditionType(StrEnum):
    """The conditions a Gateway API route or policy (per parent), or an OpenShift Route (per router), reports."""

    ACCEPTED = "Accepted"
    RESOLVED_REFS = "ResolvedRefs"
    ADMITTED = "Admitted"
