"""Named constants for rollouts: phases, per-gateway target states, failure policies, condition reasons."""

from django.db import models

__all__ = ["ACTIVE_PHASES", "SEVERITY", "FailurePolicy", "RolloutPhase", "TargetState"]


class RolloutPhase(models.TextChoices):
    PENDING = "Pending"  # waiting for a worker to validate the target release
    PROGRESSING = "Progressing"
    PAUSED = "Paused"
    HALTED = "Halted"  # a health gate failed (or the target release is Invalid); abort to release its gateways
    COMPLETED = "Completed"
    ABORTED = "Aborted"


# A gateway belongs to at most one rollout in these phases.
ACTIVE_PHASES = (RolloutPhase.PENDING, RolloutPhase.PROGRESSING, RolloutPhase.PAUSED, RolloutPhase.HALTED)


class TargetState(models.TextChoices):
    PENDING = "pending"
    UPGRADING = "upgrading"
    HEALTHY = "healthy"
    FAILED = "failed"
    ROLLED_BACK = "rolled_back"
    SKIPPED = "skipped"  # the gateway was deleted, or is being deleted


# Worst first: the state a wave or a rollout is summarised by.
SEVERITY = (
    TargetState.FAILED, TargetState.ROLLED_BACK, TargetState.UPGRADING, TargetState.PENDING,
    TargetState.SKIPPED, TargetState.HEALTHY,
)


class FailurePolicy(models.TextChoices):
    HALT = "halt", "Halt: stop, leave the wave as it is"
    HALT_AND_ROLLBACK = "halt_and_rollback", "Halt and roll the wave back to its previous release"
