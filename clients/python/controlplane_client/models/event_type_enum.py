from enum import StrEnum


class EventTypeEnum(StrEnum):
    NORMAL = "Normal"
    WARNING = "Warning"

    def __str__(self) -> str:
        return str(self.value)
