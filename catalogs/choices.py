"""Django choices for catalogs (the same vocabulary as catalogd's ClusterCatalog), built from ``catalogs.states``."""

from django.db import models

from catalogs import states
from controlplane.choices import text_choices

__all__ = ["METADATA_NAME_LABEL", "AvailabilityMode", "ConditionType", "Reason", "SourceType"]

METADATA_NAME_LABEL = "olm.operatorframework.io/metadata.name"


class SourceType(models.TextChoices):
    """catalogd's ``source.type``; an image is the one source there is."""

    IMAGE = "Image"


AvailabilityMode = text_choices(states.AvailabilityMode, __name__)
ConditionType = text_choices(states.CatalogConditionType, __name__)
Reason = text_choices(states.CatalogReason, __name__)
