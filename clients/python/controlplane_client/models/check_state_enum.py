from enum import StrEnum


class CheckStateEnum(StrEnum):
    MISSING = "missing"
    PRESENT = "present"
    WILL_CREATE = "will-create"

    def __str__(self) -> str:
        return str(self.value)
