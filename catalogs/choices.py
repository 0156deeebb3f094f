"""Named constants for catalogs (the same vocabulary as catalogd's ClusterCatalog)."""

from django.db import models

__all__ = ["METADATA_NAME_LABEL", "AvailabilityMode", "ConditionType", "Reason", "SourceType"]

METADATA_NAME_LABEL = "olm.operatorframework.io/metadata.name"


class SourceType(models.TextChoices):
    """catalogd's ``source.type``; an image is the one source there is."""

    IMAGE = "Image"


class AvailabilityMode(models.TextChoices):
    AVAILABLE = "Available"
    UNAVAILABLE = "Unavailable"


class ConditionType(models.TextChoices):
    PROGRESSING = "Progressing"
    SERVING = "Serving"


class Reason(models.TextChoices):
    SUCCEEDED = "Succeeded"
    RETRYING = "Retrying"
    BLOCKED = "Blocked"
    SIGNATURE_INVALID = "SignatureInvalid"
    AVAILABLE = "Available"
    UNAVAILABLE = "Unavailable"
    USER_SPECIFIED_UNAVAILABLE = "UserSpecifiedUnavailable"
    CONTENT_LOST = "ContentLost"  # Serving: the served entry is missing or corrupt in the store
    CONTENT_RESTORED = "ContentRestored"  # the event when the same entry is served again
