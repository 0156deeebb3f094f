from enum import StrEnum


class CatalogsListAvailabilityMode(StrEnum):
    AVAILABLE = "Available"
    UNAVAILABLE = "Unavailable"

    def __str__(self) -> str:
        return str(self.value)
