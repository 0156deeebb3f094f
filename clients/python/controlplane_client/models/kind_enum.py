from enum import StrEnum


class KindEnum(StrEnum):
    REPLACES = "replaces"
    SKIPRANGE = "skipRange"
    SKIPS = "skips"

    def __str__(self) -> str:
        return str(self.value)
