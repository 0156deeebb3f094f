from enum import StrEnum


class RolloutsListPhase(StrEnum):
    ABORTED = "Aborted"
    AWAITINGAPPROVAL = "AwaitingApproval"
    COMPLETED = "Completed"
    HALTED = "Halted"
    PAUSED = "Paused"
    PENDING = "Pending"
    PROGRESSING = "Progressing"

    def __str__(self) -> str:
        return str(self.value)
