from enum import StrEnum


class SourceTypeEnum(StrEnum):
    IMAGE = "Image"

    def __str__(self) -> str:
        return str(self.value)
