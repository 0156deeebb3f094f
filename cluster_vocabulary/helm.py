"""The statuses Helm gives a release revision (Helm's ``release.Status``)."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["HelmStatus"]


class HelmStatus(StrEnum):
    UNKNOWN = "unknown"
    DEPLOYED = "deployed"
    UNINSTALLED = "uninstalled"
    SUPERSEDED = "superseded"
    FAILED = "failed"
    UNINSTALLING = "uninstalling"
    PENDING_INSTALL = "pending-install"
    PENDING_UPGRADE = "pending-upgrade"
    PENDING_ROLLBACK = "pending-rollback"
