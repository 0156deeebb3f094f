from enum import StrEnum


class ReasonEnum(StrEnum):
    CHARTUNAVAILABLE = "ChartUnavailable"
    REGISTRYUNAVAILABLE = "RegistryUnavailable"
    VERIFICATIONFAILED = "VerificationFailed"
    VERIFIED = "Verified"

    def __str__(self) -> str:
        return str(self.value)
