from enum import StrEnum


class DeliveriesListEventKind(StrEnum):
    CATALOG = "catalog"
    CLUSTER = "cluster"
    GATEWAY = "gateway"
    ROLLOUT = "rollout"

    def __str__(self) -> str:
        return str(self.value)
