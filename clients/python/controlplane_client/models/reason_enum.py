from enum import StrEnum


class ReasonEnum(StrEnum):
    CHARTUNAVAILABLE = "ChartUnavailable"
    REGISTRYUNAVAILABLE = "RegistryUnavailable"
    VERIFICATIONFAILED = "VerificationFailed"

    def __str__(self) -> str:
        return str(self.value)
