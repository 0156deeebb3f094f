from enum import StrEnum


class ReasonEnum(StrEnum):
    CHARTUNAVAILABLE = "ChartUnavailable"
    KEYSCHANGED = "KeysChanged"
    REGISTRYUNAVAILABLE = "RegistryUnavailable"
    VERIFICATIONFAILED = "VerificationFailed"
    VERIFIED = "Verified"

    def __str__(self) -> str:
        return str(self.value)
