"""How the console colours conditions: by status, except the types their app registers as abnormal while True."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cluster_vocabulary.kubernetes import ConditionStatus
from controlplane.admin_site import ERROR, INFO, MUTED, OK, WARN, abnormal_conditions, condition_tone
from controlplane.conditions import set_condition
from gateways.admin.dashboard import trouble_reason
from gateways.models import Gateway
from gateways.states import ConditionType, Reason

WHEN = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("type_", "status", "tone"),
    [
        (ConditionType.READY, ConditionStatus.TRUE, OK),
        (ConditionType.READY, ConditionStatus.FALSE, ERROR),
        (ConditionType.READY, ConditionStatus.UNKNOWN, MUTED),
        (ConditionType.STALLED, ConditionStatus.TRUE, ERROR),
        (ConditionType.STALLED, ConditionStatus.FALSE, MUTED),
        (ConditionType.RECONCILING, ConditionStatus.TRUE, INFO),
        (ConditionType.DRIFTED, ConditionStatus.TRUE, WARN),
        (ConditionType.DRIFTED, ConditionStatus.FALSE, MUTED),
        (ConditionType.PREREQUISITES_MISSING, ConditionStatus.TRUE, ERROR),
        (ConditionType.PREREQUISITES_MISSING, ConditionStatus.UNKNOWN, MUTED),
        (ConditionType.TRUSTED_CA, ConditionStatus.FALSE, ERROR),
    ],
)
def test_the_gateway_conditions_registered_at_start_are_abnormal_while_true(type_, status, tone) -> None:
    assert condition_tone(type_, status) == tone


def _conditions(*triples: tuple[str, str, str]) -> list:
    conditions: list = []
    for type_, status, reason in triples:
        conditions = set_condition(
            conditions, type_=type_, status=status, reason=reason, message=f"{type_} says so", generation=1, now=WHEN
        )
    return conditions


def test_trouble_is_told_by_the_ready_condition_first() -> None:
    conditions = _conditions(
        (ConditionType.STALLED, ConditionStatus.TRUE, Reason.RETRIES_EXCEEDED),
        (ConditionType.RECONCILING, ConditionStatus.TRUE, Reason.PROGRESSING),
        (ConditionType.READY, ConditionStatus.FALSE, Reason.DEGRADED),
    )
    found = abnormal_conditions(conditions, first=ConditionType.READY)
    assert [c["type"] for c in found] == [ConditionType.READY, ConditionType.STALLED]  # Reconciling is only info
    assert trouble_reason(Gateway(conditions=conditions)) == f"{Reason.DEGRADED}: Ready says so"


def test_without_a_first_type_the_order_is_kept() -> None:
    conditions = _conditions(
        (ConditionType.STALLED, ConditionStatus.TRUE, Reason.RETRIES_EXCEEDED),
        (ConditionType.READY, ConditionStatus.FALSE, Reason.DEGRADED),
    )
    assert [c["type"] for c in abnormal_conditions(conditions)] == [ConditionType.STALLED, ConditionType.READY]
