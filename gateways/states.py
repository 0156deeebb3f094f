"""The vocabulary of gateways: phases, condition types and reasons, release and plan states (no Django).

``gateways.choices`` builds the Django choices from these; the reconciler speaks them directly.
"""

from __future__ import annotations

from enum import StrEnum

from cluster_vocabulary.helm import HelmStatus  # a gateway's release_status records Helm's

__all__ = [
    "ConditionType", "DatabaseProvider", "HelmStatus", "ImagePolicyReason", "Phase", "PlanAction", "PlanStatus",
    "Reason", "ReleaseReason", "ReleaseStatus", "Step",
]


class Phase(StrEnum):
    PENDING = "Pending"
    PROVISIONING = "Provisioning"
    RUNNING = "Running"
    DEGRADED = "Degraded"
    FAILED = "Failed"
    DELETING = "Deleting"


class ConditionType(StrEnum):
    READY = "Ready"
    RECONCILING = "Reconciling"
    STALLED = "Stalled"
    RELEASED = "Released"
    CLUSTER_REACHABLE = "ClusterReachable"
    PREREQUISITES_MISSING = "PrerequisitesMissing"
    DRIFTED = "Drifted"
    TRUSTED_CA = "TrustedCA"
    IMAGE_POLICY = "ImagePolicy"
    MAINTENANCE_WINDOW = "MaintenanceWindow"  # False: a change waits for the cluster's maintenance window


class Step(StrEnum):
    """The steps of a reconcile pass; a failed one is the reason ``<Step>Failed``."""

    CONNECT = "Connect"
    PREPARE = "Prepare"
    OBSERVE = "Observe"
    INSTALL = "Install"
    UPGRADE = "Upgrade"
    UNLOCK = "Unlock"
    SECURE_BACKEND = "SecureBackend"


class Reason(StrEnum):
    """The reasons of a gateway's conditions and events (besides ``<Step>Failed`` and ``ImagePolicyReason``)."""

    SUCCEEDED = "Succeeded"
    PROGRESSING = "Progressing"
    DEGRADED = "Degraded"
    RETRYING = "Retrying"
    RETRIES_EXCEEDED = "RetriesExceeded"
    SUSPENDED = "Suspended"
    INVALID_VALUES = "InvalidValues"
    CHART_UNAVAILABLE = "ChartUnavailable"
    REACHABLE = "Reachable"
    UNREACHABLE = "Unreachable"
    ALL_SERVED = "AllServed"
    APIS_NOT_SERVED = "APIsNotServed"
    PREREQUISITES_MISSING = "PrerequisitesMissing"
    DEPLOYED = "Deployed"
    INSTALL_SUCCEEDED = "InstallSucceeded"
    UPGRADE_SUCCEEDED = "UpgradeSucceeded"
    UNINSTALL_SUCCEEDED = "UninstallSucceeded"
    UNLOCKED = "Unlocked"
    DETECTION_DISABLED = "DetectionDisabled"
    NO_DRIFT = "NoDrift"
    DRIFT_DETECTED = "DriftDetected"
    MOUNTED = "Mounted"
    NOT_MOUNTABLE = "NotMountable"
    DELETING = "Deleting"
    DELETE_WAITING = "DeleteWaiting"
    DELETE_FAILED = "DeleteFailed"
    # A delete that removes what the release left without Helm, step by step.
    FORCED_DELETE = "ForcedDelete"
    CLUSTER_OBJECTS_DELETED = "ClusterObjectsDeleted"
    OWN_OBJECTS_DELETED = "OwnObjectsDeleted"
    NAMESPACE_DELETED = "NamespaceDeleted"


class ImagePolicyReason(StrEnum):
    """The reasons of a gateway's ImagePolicy condition."""

    ALLOWED = "Allowed"
    NOT_ALLOWED = "NotAllowed"
    RELEASE_IMAGES = "ReleaseImages"
    ADMIN_OVERRIDE = "AdminOverride"



class ReleaseStatus(StrEnum):
    """Whether a worker has loaded the release's chart and found its values overrides valid."""

    PENDING = "Pending"
    READY = "Ready"
    INVALID = "Invalid"


class ReleaseReason(StrEnum):
    """Why a release is still Pending: its remote chart could not be pulled (retried with backoff)."""

    CHART_UNAVAILABLE = "ChartUnavailable"


class DatabaseProvider(StrEnum):
    EMBEDDED = "embedded"  # chart-managed
    EXTERNAL = "external"  # a PostgreSQL URI the reconciler puts in a Secret


class PlanStatus(StrEnum):
    PENDING = "pending"
    READY = "ready"
    FAILED = "failed"


class PlanAction(StrEnum):
    INSTALL = "install"
    UPGRADE = "upgrade"
    NOTHING = "nothing"
    BLOCKED = "blocked"
