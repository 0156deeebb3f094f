"""The vocabulary of catalogs, as catalogd's ClusterCatalog speaks it: condition types, reasons, availability
modes (no Django; ``catalogs.choices`` builds the Django choices from these)."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["AvailabilityMode", "CatalogConditionType", "CatalogReason"]


class AvailabilityMode(StrEnum):
    AVAILABLE = "Available"
    UNAVAILABLE = "Unavailable"


class CatalogConditionType(StrEnum):
    PROGRESSING = "Progressing"
    SERVING = "Serving"


class CatalogReason(StrEnum):
    SUCCEEDED = "Succeeded"
    RETRYING = "Retrying"
    BLOCKED = "Blocked"
    SIGNATURE_INVALID = "SignatureInvalid"
    AVAILABLE = "Available"
    UNAVAILABLE = "Unavailable"
    USER_SPECIFIED_UNAVAILABLE = "UserSpecifiedUnavailable"
    CONTENT_LOST = "ContentLost"  # Serving: the served entry is missing or corrupt in the store
    CONTENT_RESTORED = "ContentRestored"  # the event when the same entry is served again
    UNPACKED = "Unpacked"  # events: new content is served
    VERIFIED = "Verified"  # the served content's signature verified with the policy keys
    DROPPED = "Dropped"  # the content was dropped (availability mode Unavailable)
