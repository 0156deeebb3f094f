from enum import StrEnum


class ConditionStatusEnum(StrEnum):
    FALSE = "False"
    TRUE = "True"
    UNKNOWN = "Unknown"

    def __str__(self) -> str:
        return str(self.value)
