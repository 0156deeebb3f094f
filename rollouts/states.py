"""The vocabulary of rollouts: phases, per-gateway target states, condition types and reasons (no Django;
``rollouts.choices`` builds the Django choices from these, and the state machine speaks them directly)."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["ACTIVE_PHASES", "SEVERITY", "RolloutConditionType", "RolloutPhase", "RolloutReason", "TargetState"]


class RolloutPhase(StrEnum):
    PENDING = "Pending"  # waiting for a worker to validate the target release
    PROGRESSING = "Progressing"
    AWAITING_APPROVAL = "AwaitingApproval"  # the current wave is planned and waits for a platform admin's approval
    PAUSED = "Paused"
    HALTED = "Halted"  # a health gate failed (or the target release is Invalid); abort to release its gateways
    COMPLETED = "Completed"
    ABORTED = "Aborted"


# A gateway belongs to at most one rollout in these phases.
ACTIVE_PHASES = (
    RolloutPhase.PENDING,
    RolloutPhase.PROGRESSING,
    RolloutPhase.AWAITING_APPROVAL,
    RolloutPhase.PAUSED,
    RolloutPhase.HALTED,
)


class TargetState(StrEnum):
    PENDING = "pending"
    UPGRADING = "upgrading"
    HEALTHY = "healthy"
    FAILED = "failed"
    ROLLED_BACK = "rolled_back"
    SKIPPED = "skipped"  # the gateway was deleted, or is being deleted


# Worst first: the state a wave or a rollout is summarised by.
SEVERITY = (
    TargetState.FAILED,
    TargetState.ROLLED_BACK,
    TargetState.UPGRADING,
    TargetState.PENDING,
    TargetState.SKIPPED,
    TargetState.HEALTHY,
)


class RolloutConditionType(StrEnum):
    PROGRESSING = "Progressing"
    HALTED = "Halted"
    ROLLED_BACK = "RolledBack"
    PAUSED = "Paused"
    MAINTENANCE_WINDOW = "MaintenanceWindow"  # False: the wave waits for a cluster's maintenance window
    APPROVED = "Approved"  # False while the current wave waits for approval


class RolloutReason(StrEnum):
    """The reasons of a rollout's conditions and events."""

    WAVE_STARTED = "WaveStarted"
    WAVE_HEALTHY = "WaveHealthy"
    COMPLETED = "Completed"
    GATE_FAILED = "GateFailed"
    RELEASE_INVALID = "ReleaseInvalid"
    HALTED = "Halted"
    ROLLED_BACK = "RolledBack"
    PAUSED = "Paused"
    RESUMED = "Resumed"
    ABORTED = "Aborted"
    UPGRADE_STARTED = "UpgradeStarted"
    GATEWAY_HEALTHY = "GatewayHealthy"
    GATEWAY_FAILED = "GatewayFailed"
    GATEWAY_ROLLED_BACK = "GatewayRolledBack"
    GATEWAY_SKIPPED = "GatewaySkipped"
    AWAITING_APPROVAL = "AwaitingApproval"
    APPROVED = "Approved"
    REJECTED = "Rejected"
    APPROVAL_VOID = "ApprovalVoid"
    PLAN_FAILED = "PlanFailed"
