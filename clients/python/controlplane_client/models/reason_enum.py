from enum import StrEnum


class ReasonEnum(StrEnum):
    CHARTUNAVAILABLE = "ChartUnavailable"

    def __str__(self) -> str:
        return str(self.value)
