from enum import StrEnum


class ReleasesListStatus(StrEnum):
    INVALID = "Invalid"
    PENDING = "Pending"
    READY = "Ready"

    def __str__(self) -> str:
        return str(self.value)
