"""Named constants for gateways."""

from django.db import models

__all__ = ["DatabaseProvider", "Phase"]


class Phase(models.TextChoices):
    PENDING = "Pending"
    PROVISIONING = "Provisioning"
    RUNNING = "Running"
    DEGRADED = "Degraded"
    FAILED = "Failed"
    DELETING = "Deleting"


class DatabaseProvider(models.TextChoices):
    EMBEDDED = "embedded", "Embedded (chart-managed)"
    EXTERNAL = "external", "External PostgreSQL URI"
