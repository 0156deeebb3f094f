"""Named constants shared across the project."""

from django.db import models

__all__ = ["ClusterReason", "ConditionStatus", "EventType", "Flavour"]


class Flavour(models.TextChoices):
    KUBERNETES = "kubernetes", "Kubernetes"
    OPENSHIFT = "openshift", "OpenShift"


class ConditionStatus(models.TextChoices):
    TRUE = "True"
    FALSE = "False"
    UNKNOWN = "Unknown"


class EventType(models.TextChoices):
    NORMAL = "Normal"
    WARNING = "Warning"


class ClusterReason(models.TextChoices):
    """The reasons of a cluster's events: its circuit breaker opening and closing."""

    UNREACHABLE = "Unreachable"
    REACHABLE = "Reachable"
