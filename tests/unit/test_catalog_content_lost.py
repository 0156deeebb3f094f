"""Pure parts of healing lost catalog content: the ContentLost transition, the restore outcome, the index extent."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest

from catalogs.content.index import CatalogIndex
from catalogs.lost_content import lost_conditions
from controlplane.conditions import Condition, set_condition
from workers.reconcile.catalog import step_outcomes
from workers.reconcile.catalog.failures import Failure
from workers.reconcile.catalog.request import CatalogRequest

NOW = datetime(2026, 5, 6, 7, 8, 9, tzinfo=UTC)
DIGEST = "sha256:" + "c" * 64


def serving(status: str, reason: str) -> list[Condition]:
    return set_condition([], type_="Serving", status=status, reason=reason, message="m", generation=1, now=NOW)


def request(conditions: list[Condition], *, digest: str = DIGEST, present: bool = False) -> CatalogRequest:
    return CatalogRequest(
        pk="p",
        name="ops",
        generation=1,
        image_ref="r.io/ops@sha256:" + "d" * 64,
        available=True,
        pull_username="",
        pull_password="",
        ca="",
        conditions=tuple(conditions),
        observed_generation=1,
        resolved_ref="r.io/ops@sha256:" + "d" * 64,
        base_url="http://b/catalogs/ops",
        last_unpacked=NOW,
        content_digest=digest,
        content_present=present,
    )


@pytest.mark.parametrize(
    ("before", "marked"),
    [
        ([], True),
        (serving("True", "Available"), True),
        (serving("False", "Unavailable"), True),
        (serving("False", "ContentLost"), False),
    ],
    ids=["no-conditions", "serving", "unavailable", "already-lost"],
)
def test_lost_conditions_turn_serving_false_once(before: list[Condition], marked: bool) -> None:
    after = lost_conditions(before, digest=DIGEST, generation=3, now=NOW)
    if not marked:
        assert after is None
        return
    assert after is not None
    (condition,) = after
    assert (condition["status"], condition["reason"], condition["observedGeneration"]) == ("False", "ContentLost", 3)
    assert DIGEST in condition["message"]


@pytest.mark.parametrize(
    ("digest", "present", "written", "restores"),
    [
        (DIGEST, False, DIGEST, True),
        (DIGEST, True, DIGEST, False),
        (DIGEST, False, "sha256:" + "e" * 64, False),
        ("", False, DIGEST, False),
    ],
    ids=["lost-same-digest", "present", "lost-other-digest", "first-unpack"],
)
def test_restores_only_the_same_digest_lost(digest: str, present: bool, written: str, restores: bool) -> None:
    assert request([], digest=digest, present=present).restores(written) is restores


def test_restored_serves_again_with_its_event_and_no_switch() -> None:
    lost = request(serving("False", "ContentLost"))
    step = step_outcomes.restored(lost, lost.resolved_ref, lost.base_url, NOW)
    serving_after = next(c for c in step.conditions if c.type == "Serving")
    assert (serving_after.status, serving_after.reason) == ("True", "Available")
    assert [(e.type, e.reason) for e in step.events] == [("Normal", "ContentRestored")]
    assert step.switch is None and step.require_content == DIGEST and step.status.content_digest == DIGEST


@pytest.mark.parametrize(("reason", "event"), [("ContentLost", "ContentRestored"), ("Available", None)])
def test_in_sync_after_a_loss_notes_the_restore(reason: str, event: str | None) -> None:
    step = step_outcomes.in_sync(request(serving("False" if event else "True", reason), present=True), NOW)
    assert [e.reason for e in step.events] == ([event] if event else [])


@pytest.mark.parametrize("terminal", [False, True], ids=["registry-down", "terminal"])
def test_a_failed_heal_keeps_what_the_catalog_serves(terminal: bool) -> None:
    """Before: the registry down while lost content healed cleared resolved_ref, base_url and content_digest."""
    lost = request(serving("False", "ContentLost"))
    step = step_outcomes.failed(lost, Failure(terminal=terminal, message="registry unreachable"), NOW, None)
    kept = dataclasses.replace(step.status, failure_count=0, next_attempt_at=None, blocked_digest="")
    assert kept == lost.served_status(), "every status field is kept as it was"
    assert step.release_content == "" and step.content_present is False
    serving_after = next(c for c in step.conditions if c.type == "Serving")
    assert (serving_after.status, serving_after.reason) == ("False", "ContentLost")
    assert DIGEST in serving_after.message and "registry unreachable" in serving_after.message
    restored = step_outcomes.restored(lost.after(step, NOW), lost.resolved_ref, lost.base_url, NOW)
    assert [e.reason for e in restored.events] == ["ContentRestored"] and restored.switch is None


def test_a_failure_with_nothing_unpacked_says_nothing_is_served() -> None:
    never = request([], digest="")
    step = step_outcomes.failed(never, Failure(terminal=False, message="down"), NOW, None)
    assert step.status.resolved_ref == "" and step.status.content_digest == ""
    assert next(c for c in step.conditions if c.type == "Serving").reason == "Unavailable"


@pytest.mark.parametrize(
    ("entries", "extent"),
    [([], 0), ([[0, 10, "olm.package", "etcd", "etcd"]], 10), ([[0, 4, "a", "", ""], [4, 6, "b", "", ""]], 10)],
)
def test_index_extent_is_where_the_last_line_ends(entries: list[list], extent: int) -> None:
    assert CatalogIndex.from_entries(entries).extent == extent
