"""The ``result`` label means the same for every kind: a counted failure is ``failed``, blocked or retried alike."""

from __future__ import annotations

import pytest

from controlplane.metrics import PassOutcome
from workers.reconcile.ending import pass_outcome


@pytest.mark.parametrize(
    ("ending", "result"),
    [
        ({"saved": True, "failed": False, "requeue_after": None}, PassOutcome.SUCCESS),
        ({"saved": True, "failed": False, "requeue_after": 5.0}, PassOutcome.REQUEUED),
        ({"saved": True, "failed": True, "requeue_after": 10.0}, PassOutcome.FAILED),  # retried with backoff
        ({"saved": True, "failed": True, "requeue_after": None}, PassOutcome.FAILED),  # blocked, or stalled
        ({"saved": False, "failed": True, "requeue_after": None}, PassOutcome.STALE),
        ({"saved": True, "failed": False, "requeue_after": None, "unreachable": True}, PassOutcome.UNREACHABLE),
    ],
)
def test_pass_outcome(ending: dict, result: PassOutcome) -> None:
    assert pass_outcome(**ending) is result
