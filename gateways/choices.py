"""Named constants for gateways."""

from django.db import models

__all__ = [
    "DatabaseProvider", "ImagePolicyReason", "Phase", "PlanAction", "PlanStatus", "ReleaseReason", "ReleaseStatus",
]


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


class PlanStatus(models.TextChoices):
    PENDING = "pending"
    READY = "ready"
    FAILED = "failed"


class PlanAction(models.TextChoices):
    INSTALL = "install"
    UPGRADE = "upgrade"
    NOTHING = "nothing"
    BLOCKED = "blocked"


class ReleaseStatus(models.TextChoices):
    """Whether a worker has loaded the release's chart and found its values overrides valid."""

    PENDING = "Pending"
    READY = "Ready"
    INVALID = "Invalid"


class ReleaseReason(models.TextChoices):
    """Why a release is still Pending: its remote chart could not be pulled (retried with backoff)."""

    CHART_UNAVAILABLE = "ChartUnavailable"


class ImagePolicyReason(models.TextChoices):
    """The reasons of a gateway's ImagePolicy condition."""

    ALLOWED = "Allowed"
    NOT_ALLOWED = "NotAllowed"
    RELEASE_IMAGES = "ReleaseImages"
