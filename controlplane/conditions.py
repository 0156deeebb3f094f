"""Kubernetes-style conditions as plain dicts: pure helpers, the caller supplies the clock."""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict

__all__ = ["Condition", "find_condition", "set_condition"]


class Condition(TypedDict):
    type: str
    status: str
    reason: str
    message: str
    lastTransitionTime: str
    observedGeneration: int


def find_condition(conditions: list[Condition], type_: str) -> Condition | None:
    return next((c for c in conditions if c["type"] == type_), None)


def set_condition(
    conditions: list[Condition],
    *,
    type_: str,
    status: str,
    reason: str,
    message: str,
    generation: int,
    now: datetime,
) -> list[Condition]:
    """Return a new list with ``type_`` set in place (new types go last).

    The transition time moves only when the status changes, so setting what is already there
    returns an equal list: callers can compare to skip writes.
    """
    previous = find_condition(conditions, type_)
    updated = Condition(
        type=type_,
        status=status,
        reason=reason,
        message=message,
        lastTransitionTime=(
            now.isoformat() if previous is None or previous["status"] != status else previous["lastTransitionTime"]
        ),
        observedGeneration=generation,
    )
    if previous is None:
        return [*conditions, updated]
    return [updated if c["type"] == type_ else c for c in conditions]
