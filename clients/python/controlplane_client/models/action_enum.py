from enum import StrEnum


class ActionEnum(StrEnum):
    BLOCKED = "blocked"
    INSTALL = "install"
    NOTHING = "nothing"
    UPGRADE = "upgrade"

    def __str__(self) -> str:
        return str(self.value)
