"""Django choices for gateways, built from the ``StrEnum``s of ``gateways.states``."""

from controlplane.choices import text_choices
from gateways import states

__all__ = [
    "DatabaseProvider",
    "ImagePolicyReason",
    "Phase",
    "PlanAction",
    "PlanStatus",
    "ReleaseReason",
    "ReleaseStatus",
]

Phase = text_choices(states.Phase, __name__)
PlanStatus = text_choices(states.PlanStatus, __name__)
PlanAction = text_choices(states.PlanAction, __name__)
ReleaseStatus = text_choices(states.ReleaseStatus, __name__)
ReleaseReason = text_choices(states.ReleaseReason, __name__)
ImagePolicyReason = text_choices(states.ImagePolicyReason, __name__)
DatabaseProvider = text_choices(
    states.DatabaseProvider,
    __name__,
    {
        states.DatabaseProvider.EMBEDDED: "Embedded (chart-managed)",
        states.DatabaseProvider.EXTERNAL: "External PostgreSQL URI",
    },
)
