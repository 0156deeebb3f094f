from enum import StrEnum


class DeliveriesListEventKind(StrEnum):
    CATALOG = "catalog"
    CLUSTER = "cluster"
    GATEWAY = "gateway"
    RELEASE = "release"
    ROLLOUT = "rollout"

    def __str__(self) -> str:
        return str(self.value)
