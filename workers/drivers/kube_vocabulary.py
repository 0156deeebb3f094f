"""Kubernetes' own words, as the API server writes them into the objects the workers read (no Django)."""

from __future__ import annotations

from enum import StrEnum

from cluster_vocabulary.kubernetes import ConditionStatus, EventType

__all__ = ["ConditionStatus", "EventType", "NamespacePhase", "RouteConditionType"]


class NamespacePhase(StrEnum):
    ACTIVE = "Active"
    TERMINATING = "Terminating"


class RouteConditionType(StrEnum):
    """The conditions a Gateway API route or policy (per parent), or an OpenShift Route (per router), reports."""

    ACCEPTED = "Accepted"
    RESOLVED_REFS = "ResolvedRefs"
    ADMITTED = "Admitted"
