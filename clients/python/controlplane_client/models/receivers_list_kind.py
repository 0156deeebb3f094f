from enum import StrEnum


class ReceiversListKind(StrEnum):
    SLACK = "slack"
    WEBHOOK = "webhook"

    def __str__(self) -> str:
        return str(self.value)
