"""The vocabulary of gateways: phases, condition types and reasons, release and plan states (no Django).

``gateways.choices`` builds the Django choices from these; the reconciler speaks them directly.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "ConditionType",
    "DatabaseProvider",
    "ImagePolicyReason",
    "Phase",
    "PlanAction",
    "PlanStatus",
    "Reason",
    "ReleaseConditionType",
    "ReleaseReason",
    "ReleaseStatus",
    "Step",
    "VerifiedArtefact",
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
    VERIFIED = "Verified"  # its release's artefacts verify with the release's current keys (releases with a policy)
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
    RELEASE_UNVERIFIED = "ReleaseUnverified"  # its release's keys changed and it does not verify (yet)
    RELEASE_VERIFIED = "ReleaseVerified"
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


class ReleaseConditionType(StrEnum):
    VERIFIED = "Verified"  # its pinned artefacts verify with the signature policy's current keys


class ReleaseReason(StrEnum):
    """Why a release is still Pending (its remote chart, or the registry its signatures are in, could not be reached:
    retried with backoff), or why it is Invalid after a signature check."""

    CHART_UNAVAILABLE = "ChartUnavailable"
    REGISTRY_UNAVAILABLE = "RegistryUnavailable"
    VERIFICATION_FAILED = "VerificationFailed"
    VERIFIED = "Verified"  # the Verified condition's reason when it is True


class VerifiedArtefact(StrEnum):
    """The keys of a release's ``verified_digests``: what was verified, with which key, and when."""

    CHART = "chart"
    IMAGE = "image"
    SUPERVISOR_IMAGE = "supervisor_image"
    KEY = "key"  # the fingerprint of the policy key that verified the signatures
    KEYS = "keys"  # the fingerprint of the policy's key set (changed keys: verify again)
    VERIFIED_AT = "verified_at"


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
