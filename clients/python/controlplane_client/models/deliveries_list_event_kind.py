from enum import StrEnum


class DeliveriesListEventKind(StrEnum):
    CATALOG = "catalog"
    GATEWAY = "gateway"
    ROLLOUT = "rollout"

    def __str__(self) -> str:
        return str(self.value)
