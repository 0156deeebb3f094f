from enum import StrEnum


class WaveApprovalStateEnum(StrEnum):
    APPROVED = "approved"
    AWAITING = "awaiting"
    REJECTED = "rejected"
    VOID = "void"

    def __str__(self) -> str:
        return str(self.value)
