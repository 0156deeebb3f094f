from enum import StrEnum


class ProviderEnum(StrEnum):
    EMBEDDED = "embedded"
    EXTERNAL = "external"

    def __str__(self) -> str:
        return str(self.value)
