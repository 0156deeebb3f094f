from enum import StrEnum


class DeliveriesListStatus(StrEnum):
    DELIVERED = "delivered"
    FAILED = "failed"
    PENDING = "pending"
    SENDING = "sending"

    def __str__(self) -> str:
        return str(self.value)
