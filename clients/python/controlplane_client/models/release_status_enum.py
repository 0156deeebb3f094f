from enum import StrEnum


class ReleaseStatusEnum(StrEnum):
    INVALID = "Invalid"
    PENDING = "Pending"
    READY = "Ready"

    def __str__(self) -> str:
        return str(self.value)
