"""The one outcome every reconciler's pass returns, and how its condition changes are applied (pure)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from workers.reconcile.catalog.outcome import CatalogOutcome
from workers.reconcile.outcome import ConditionChange, Outcome, apply_conditions

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def test_changes_are_applied_in_order_and_new_types_go_last() -> None:
    before = apply_conditions((), [ConditionChange("Ready", "False", "Progressing", "waiting")], generation=1, now=NOW)
    changes = [
        ConditionChange("Stalled", "False", "Progressing", ""),
        ConditionChange("Ready", "True", "Succeeded", "ready"),
        ConditionChange("Ready", "True", "Succeeded", "ready again"),
    ]
    after = apply_conditions(before, changes, generation=2, now=NOW + timedelta(minutes=1))
    assert [(c["type"], c["status"], c["reason"], c["message"]) for c in after] == [
        ("Ready", "True", "Succeeded", "ready again"),
        ("Stalled", "False", "Progressing", ""),
    ]
    assert after[0]["observedGeneration"] == 2 and before[0]["status"] == "False"  # the input is left as it was


def test_applying_what_is_already_there_changes_nothing() -> None:
    change = ConditionChange("Serving", "True", "Available", "serving")
    once = apply_conditions((), [change], generation=3, now=NOW)
    assert apply_conditions(once, [change], generation=3, now=NOW + timedelta(hours=1)) == once


def test_messages_are_bounded() -> None:
    [condition] = apply_conditions((), [ConditionChange("Ready", "False", "Failed", "x" * 5000)], generation=1, now=NOW)
    assert len(condition["message"]) == 1024


def test_an_outcome_collects_conditions_and_events() -> None:
    outcome = Outcome()
    outcome.condition("Ready", "False", "InstallFailed", "boom")
    outcome.event("InstallFailed", "boom", warning=True)
    outcome.event("Unlocked", "done")
    assert outcome.conditions == [ConditionChange("Ready", "False", "InstallFailed", "boom")]
    assert [(e.type, e.reason) for e in outcome.events] == [("Warning", "InstallFailed"), ("Normal", "Unlocked")]
    assert (outcome.failed, outcome.requeue_after) == (False, None)
    catalog = CatalogOutcome()
    assert (catalog.failed, catalog.superseded, catalog.requeue_after, catalog.changes) == (False, False, None, True)
