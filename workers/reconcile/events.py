"""One event of an object's history, as a reconcile pass notes it before saving (pure)."""

from __future__ import annotations

from dataclasses import dataclass

from cluster_vocabulary.kubernetes import EventType

__all__ = ["EventNote"]


@dataclass(frozen=True)
class EventNote:
    type: str  # EventType: Normal or Warning
    reason: str
    message: str

    @classmethod
    def normal(cls, reason: str, message: str) -> EventNote:
        return cls(EventType.NORMAL, reason, message)

    @classmethod
    def warning(cls, reason: str, message: str) -> EventNote:
        return cls(EventType.WARNING, reason, message)
