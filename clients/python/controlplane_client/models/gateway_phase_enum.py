from enum import StrEnum


class GatewayPhaseEnum(StrEnum):
    DEGRADED = "Degraded"
    DELETING = "Deleting"
    FAILED = "Failed"
    PENDING = "Pending"
    PROVISIONING = "Provisioning"
    RUNNING = "Running"

    def __str__(self) -> str:
        return str(self.value)
