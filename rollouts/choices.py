"""Django choices for rollouts, built from ``rollouts.states``, and the failure policies."""

from django.db import models

from controlplane.choices import text_choices
from rollouts import approval, states

__all__ = ["ACTIVE_PHASES", "SEVERITY", "ApprovalState", "FailurePolicy", "RolloutPhase", "TargetState"]

RolloutPhase = text_choices(states.RolloutPhase, __name__)
TargetState = text_choices(states.TargetState, __name__)
ApprovalState = text_choices(approval.ApprovalState, __name__)
ACTIVE_PHASES = states.ACTIVE_PHASES
SEVERITY = states.SEVERITY


class FailurePolicy(models.TextChoices):
    HALT = "halt", "Halt: stop, leave the wave as it is"
    HALT_AND_ROLLBACK = "halt_and_rollback", "Halt and roll the wave back to its previous release"
