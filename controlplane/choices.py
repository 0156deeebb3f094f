"""Django choices for the shared vocabulary, built from its ``StrEnum``s (which import no Django)."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from django.db import models

from cluster_vocabulary import kubernetes
from controlplane import events, flavours

__all__ = ["ClusterReason", "ConditionStatus", "EventType", "Flavour", "text_choices"]


def text_choices(enum: type[StrEnum], module: str, labels: Mapping[str, str] | None = None) -> type[models.TextChoices]:
    """``TextChoices`` with ``enum``'s member names and values, defined in ``module``; labelled from the names (as
    a ``TextChoices`` class body labels them) unless ``labels`` gives one by value."""
    labels = labels or {}
    members = [
        (member.name, (member.value, labels[member.value]) if member.value in labels else member.value)
        for member in enum
    ]
    choices = models.TextChoices(enum.__name__, members, module=module)
    choices.__doc__ = enum.__doc__
    return choices


FLAVOUR_LABELS: dict[str, str] = {flavours.Flavour.KUBERNETES: "Kubernetes", flavours.Flavour.OPENSHIFT: "OpenShift"}

Flavour = text_choices(flavours.Flavour, __name__, FLAVOUR_LABELS)
ConditionStatus = text_choices(kubernetes.ConditionStatus, __name__)
EventType = text_choices(kubernetes.EventType, __name__)
ClusterReason = text_choices(events.ClusterReason, __name__)
