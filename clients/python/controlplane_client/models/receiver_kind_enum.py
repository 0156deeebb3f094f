from enum import StrEnum


class ReceiverKindEnum(StrEnum):
    SLACK = "slack"
    WEBHOOK = "webhook"

    def __str__(self) -> str:
        return str(self.value)
