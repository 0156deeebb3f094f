from enum import StrEnum


class RolloutTargetStateEnum(StrEnum):
    FAILED = "failed"
    HEALTHY = "healthy"
    PENDING = "pending"
    ROLLED_BACK = "rolled_back"
    SKIPPED = "skipped"
    UPGRADING = "upgrading"

    def __str__(self) -> str:
        return str(self.value)
