from enum import StrEnum


class FailurePolicyEnum(StrEnum):
    HALT = "halt"
    HALT_AND_ROLLBACK = "halt_and_rollback"

    def __str__(self) -> str:
        return str(self.value)
