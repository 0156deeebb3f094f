"""Catalog reconcile decisions (pure): state, outcomes, failure classes, backoff, polling, HTTP negotiation."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from catalogs.content.negotiation import accepts_gzip, etag_for, if_range_allows, parse_range
from controlplane.conditions import Condition
from workers.drivers.cosign import SignatureInvalid
from workers.drivers.oci_errors import (
    DigestMismatch,
    InvalidImage,
    RegistryServerError,
    RegistryUnauthorized,
    RegistryUnreachable,
)
from workers.fbc.parse import FBCError
from workers.fbc.untar import CorruptLayer, UnsafeLayer
from workers.reconcile.catalog import step_outcomes
from workers.reconcile.catalog.failures import MAX_RETRY_AFTER, RETRY, Failure, classify, poll_seconds, retry_delay
from workers.reconcile.catalog.outcome import CatalogOutcome, CatalogStatus, Switch
from workers.reconcile.catalog.polling import UNSETTLED_RECHECK_SECONDS, is_settled, recheck_seconds
from workers.reconcile.catalog.request import CatalogRequest
from workers.reconcile.catalog.state import CatalogState, determine_state
from workers.reconcile.outcome import apply_conditions

NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
DIGEST = "sha256:" + "d" * 64
CONTENT = "sha256:" + "c" * 64
OTHER = "sha256:" + "e" * 64


def request(**overrides: object) -> CatalogRequest:
    values: dict = {
        "pk": "1",
        "name": "ops",
        "generation": 2,
        "image_ref": "127.0.0.1:5000/cat:v1",
        "available": True,
        "pull_username": "",
        "pull_password": "",
        "ca": "",
        "conditions": (),
        "observed_generation": 1,
        "resolved_ref": f"127.0.0.1:5000/cat@{DIGEST}",
        "base_url": "http://x/catalogs/ops",
        "last_unpacked": NOW,
        "content_digest": CONTENT,
        "content_present": True,
    }
    return CatalogRequest(**{**values, **overrides})


@pytest.mark.parametrize(
    ("overrides", "resolved", "state"),
    [
        ({"available": False}, None, CatalogState.USER_UNAVAILABLE),
        ({}, None, CatalogState.UNRESOLVED),
        ({}, DIGEST, CatalogState.IN_SYNC),
        ({}, "sha256:" + "e" * 64, CatalogState.OUT_OF_SYNC),
        ({"content_present": False}, DIGEST, CatalogState.OUT_OF_SYNC),
        ({"blocked_digest": OTHER}, OTHER, CatalogState.BLOCKED),
        ({"blocked_digest": OTHER, "content_present": False}, OTHER, CatalogState.BLOCKED),
        ({"blocked_digest": OTHER}, "sha256:" + "f" * 64, CatalogState.OUT_OF_SYNC),  # the tag moved on: pull it
        ({"blocked_digest": OTHER}, DIGEST, CatalogState.IN_SYNC),  # moved back to what is served
    ],
)
def test_determine_state(overrides: dict, resolved: str | None, state: CatalogState) -> None:
    assert determine_state(request(**overrides), resolved) is state


def conditions_of(result: CatalogOutcome) -> dict[str, tuple[str, str]]:
    return {c.type: (c.status, c.reason) for c in result.conditions}


def saved_conditions(result: CatalogOutcome) -> tuple[Condition, ...]:
    """The conditions of a catalog of ``request()``'s generation, with none before, once ``result`` is saved."""
    return tuple(apply_conditions((), result.conditions, generation=request().generation, now=NOW))


def test_failure_with_content_keeps_serving() -> None:
    retry_at = NOW + timedelta(seconds=10)
    failure = Failure(terminal=False, message="registry down")
    result = step_outcomes.failed(request(failure_count=2), failure, NOW, retry_at)
    assert conditions_of(result) == {"Progressing": ("True", "Retrying"), "Serving": ("True", "Available")}
    assert result.status.content_digest == CONTENT and result.content_present
    assert (result.status.failure_count, result.status.next_attempt_at) == (3, retry_at)
    assert [e.type for e in result.events] == ["Warning"] and not result.release_content


def test_terminal_failure_without_content_is_not_serving_and_blocks_on_the_digest() -> None:
    never_unpacked = request(content_present=False, content_digest="", resolved_ref="", base_url="", last_unpacked=None)
    result = step_outcomes.failed(never_unpacked, Failure(terminal=True, message="no label"), NOW, None, DIGEST)
    assert conditions_of(result) == {"Progressing": ("False", "Blocked"), "Serving": ("False", "Unavailable")}
    assert result.status == CatalogStatus(failure_count=1, next_attempt_at=None, blocked_digest=DIGEST)
    assert not result.release_content


def test_terminal_failure_after_a_loss_keeps_the_lost_contents_status() -> None:
    """Lost from the store, and the tag moved to a bad image: the catalog still names what it served."""
    result = step_outcomes.failed(
        request(content_present=False), Failure(terminal=True, message="no label"), NOW, None, DIGEST
    )
    assert conditions_of(result) == {"Progressing": ("False", "Blocked"), "Serving": ("False", "ContentLost")}
    assert result.status.content_digest == CONTENT and result.status.blocked_digest == DIGEST
    assert not result.release_content


def test_retryable_failure_and_recovery_clear_the_blocked_digest() -> None:
    blocked = request(blocked_digest=OTHER)
    assert (
        step_outcomes.failed(blocked, Failure(terminal=False, message="down"), NOW, NOW, DIGEST).status.blocked_digest
        == ""
    )
    recovered = step_outcomes.in_sync(blocked, NOW)
    assert recovered.status.blocked_digest == "" and recovered.changes


def test_repeated_failure_records_no_second_event() -> None:
    first = step_outcomes.failed(request(), Failure(terminal=False, message="down"), NOW, NOW)
    again = step_outcomes.failed(
        request(conditions=saved_conditions(first)), Failure(terminal=False, message="down"), NOW, NOW
    )
    assert again.events == []


def test_dropped_and_unpacked_and_in_sync() -> None:
    dropped = step_outcomes.dropped(request(available=False), NOW)
    assert conditions_of(dropped)["Serving"] == ("False", "UserSpecifiedUnavailable")
    assert dropped.release_content == CONTENT and dropped.status.resolved_ref == ""
    switch = Switch(summary="+1 bundle", changes={})
    done = step_outcomes.unpacked(
        request(content_present=False), "r@" + DIGEST, CONTENT, "http://x/catalogs/ops", NOW, switch
    )
    assert conditions_of(done) == {"Progressing": ("True", "Succeeded"), "Serving": ("True", "Available")}
    assert done.require_content == CONTENT and done.status.last_unpacked == NOW and done.switch == switch
    assert len(done.events) == 1 and done.events[0].message.startswith("+1 bundle; serving " + CONTENT)
    settled = request(conditions=saved_conditions(done), observed_generation=2, resolved_ref="r@" + DIGEST)
    assert not step_outcomes.in_sync(settled, NOW).changes


@pytest.mark.parametrize(
    ("exc", "terminal"),
    [
        (FBCError("no label"), True),
        (UnsafeLayer("escape"), True),
        (CorruptLayer("gz"), True),
        (InvalidImage("bad"), True),
        (DigestMismatch("x"), False),
        (RegistryUnreachable("x"), False),
        (RegistryUnauthorized("x"), False),
        (KeyError("boom"), False),
    ],
)
def test_classify(exc: Exception, terminal: bool) -> None:
    assert classify(exc, ()).terminal is terminal


def test_signature_failures_block_with_their_own_reason() -> None:
    failure = classify(SignatureInvalid("no cosign signature found"), ())
    assert (failure.terminal, failure.reason) == (True, "SignatureInvalid")
    result = step_outcomes.failed(request(), failure, NOW, None)
    assert conditions_of(result) == {"Progressing": ("False", "SignatureInvalid"), "Serving": ("True", "Available")}
    assert [e.reason for e in result.events] == ["SignatureInvalid"]
    assert classify(FBCError("no label"), ()).reason == ""


def test_content_unverified_by_the_current_keys_is_unverified() -> None:
    keys = "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----"
    unverified = request(signature_keys=keys)
    assert determine_state(unverified, DIGEST) is CatalogState.UNVERIFIED
    assert determine_state(unverified, "sha256:" + "e" * 64) is CatalogState.OUT_OF_SYNC  # other content: pull it
    verified = request(signature_keys=keys, verified_keys=unverified.keys_fingerprint)
    assert determine_state(verified, DIGEST) is CatalogState.IN_SYNC
    assert (
        determine_state(
            request(signature_keys=keys.replace("AAAA", "BBBB"), verified_keys=verified.verified_keys), DIGEST
        )
        is CatalogState.UNVERIFIED
    )
    done = step_outcomes.verified(unverified, NOW)
    assert done.status.verified_keys == unverified.keys_fingerprint and done.events
    assert not done.release_content and not done.require_content and done.content_present


def test_classify_hides_secrets_and_internals() -> None:
    assert "hunter22" not in classify(RegistryUnreachable("auth hunter22 failed"), ["hunter22"]).message
    assert classify(KeyError("internal detail"), ()).message.startswith("unexpected KeyError")


def test_classify_keeps_the_registrys_retry_after() -> None:
    assert classify(RegistryServerError("429", status=429, retry_after=120.0), ()).retry_after == 120.0
    assert classify(RegistryServerError("500", status=500), ()).retry_after is None


@pytest.mark.parametrize(
    ("failure", "attempt", "expected"),
    [
        (Failure(terminal=True, message="x"), 1, None),
        (Failure(terminal=False, message="x"), 1, 10),
        (Failure(terminal=False, message="x", retry_after=120), 1, 120),  # longer than the backoff: honoured
        (Failure(terminal=False, message="x", retry_after=5), 3, 40),  # shorter: the backoff stands
        (Failure(terminal=False, message="x", retry_after=0), 1, 10),
        (Failure(terminal=False, message="x", retry_after=86400), 1, MAX_RETRY_AFTER.total_seconds()),  # capped
        (Failure(terminal=False, message="x", retry_after=float("inf")), 1, MAX_RETRY_AFTER.total_seconds()),
    ],
)
def test_retry_delay(failure: Failure, attempt: int, expected: float | None) -> None:
    delay = retry_delay(failure, attempt, 0.0)
    assert (delay is None) if expected is None else delay == timedelta(seconds=expected)


@pytest.mark.parametrize(
    ("observed", "content", "blocked", "available", "settled"),
    [
        (2, CONTENT, "", True, True),
        (2, "", "", True, False),
        (2, "", OTHER, True, True),
        (1, "", OTHER, True, False),
        (2, "", "", False, True),
        (1, CONTENT, "", True, False),
    ],
)
def test_is_settled(observed: int, content: str, blocked: str, available: bool, settled: bool) -> None:
    assert (
        is_settled(
            generation=2,
            observed_generation=observed,
            content_digest=content,
            blocked_digest=blocked,
            available=available,
        )
        is settled
    )


@pytest.mark.parametrize(("attempt", "unit", "expected"), [(1, 0, 10), (2, 0, 20), (3, 1, 32), (20, 0, 600)])
def test_backoff(attempt: int, unit: float, expected: float) -> None:
    assert RETRY.delay(attempt, unit).total_seconds() == pytest.approx(expected)


@pytest.mark.parametrize(
    ("ref", "interval", "settled", "expected"),
    [
        ("r.io/a:v1", 5, True, (270, 330)),
        ("r.io/a:v1", None, True, None),
        ("r.io/a@" + DIGEST, None, True, None),
        ("r.io/a@" + DIGEST, None, False, (UNSETTLED_RECHECK_SECONDS, UNSETTLED_RECHECK_SECONDS)),
    ],
)
def test_recheck(ref: str, interval: int | None, settled: bool, expected: tuple | None) -> None:
    for unit in (0.0, 0.5, 1.0):
        seconds = recheck_seconds(image_ref=ref, poll_interval_minutes=interval, settled=settled, random_unit=unit)
        assert seconds is None if expected is None else expected[0] <= seconds <= expected[1]
    assert poll_seconds(1, 0.5) == 60


@pytest.mark.parametrize(
    ("header", "size", "expected"),
    [
        ("bytes=0-9", 100, (0, 10)),
        ("bytes=90-", 100, (90, 10)),
        ("bytes=-5", 100, (95, 5)),
        ("bytes=95-200", 100, (95, 5)),
        ("bytes=-500", 100, (0, 100)),
        ("bytes=100-", 100, False),
        ("bytes=-0", 100, False),
        ("bytes=5-1", 100, None),
        ("bytes=0-1,5-6", 100, None),
        ("items=0-1", 100, None),
        ("bytes=-", 100, None),
    ],
)
def test_parse_range(header: str, size: int, expected: object) -> None:
    assert parse_range(header, size) == expected


@pytest.mark.parametrize(
    ("header", "accepted"),
    [
        ("gzip", True),
        ("br, gzip;q=0.5", True),
        ("gzip;q=0", False),
        ("identity", False),
        ("*", True),
        ("*;q=0", False),
        ("", False),
        ("GZIP", True),
    ],
)
def test_accepts_gzip(header: str, accepted: bool) -> None:
    assert accepts_gzip(header) is accepted


def test_if_range() -> None:
    etag = etag_for(CONTENT)
    assert if_range_allows("", etag, NOW)
    assert if_range_allows(etag, etag, NOW)
    assert not if_range_allows('"other"', etag, NOW)
    assert if_range_allows("Fri, 02 Jan 2026 03:04:05 GMT", etag, NOW)
    assert not if_range_allows("Fri, 02 Jan 2026 03:04:04 GMT", etag, NOW)
    assert etag_for(CONTENT, gzipped=True) == f'"{CONTENT}-gzip"'
