from enum import StrEnum


class AvailabilityModeEnum(StrEnum):
    AVAILABLE = "Available"
    UNAVAILABLE = "Unavailable"

    def __str__(self) -> str:
        return str(self.value)
