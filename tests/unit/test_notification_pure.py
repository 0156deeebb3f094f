"""Signatures, payloads, matching and the retry policy of notifications: pure functions, no servers."""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import UTC, datetime, timedelta

import pytest

from notifications.choices import DeliveryStatus, EventKind, ReceiverKind, Severity
from notifications.matching import EventFacts, Filter, matches, severity_of
from notifications.payloads import body_for, build_payload
from notifications.policy import DeliveryRetryPolicy, judge
from notifications.signing import sign, verify

NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def facts(**overrides) -> EventFacts:
    base = {
        "kind": EventKind.GATEWAY,
        "event_id": 7,
        "object_id": "11111111-2222-3333-4444-555555555555",
        "name": "edge",
        "type": "Warning",
        "reason": "InstallFailed",
        "message": "helm install failed",
        "timestamp": NOW.isoformat(),
        "phase": "Failed",
        "cluster": "east",
        "owner_id": 3,
        "gateway_id": "11111111-2222-3333-4444-555555555555",
        "labels": {"tier": "prod"},
    }
    return EventFacts(**{**base, **overrides})


def test_signature_is_hmac_sha256_of_timestamp_dot_body() -> None:
    body = b'{"version":"v1"}'
    expected = hmac.new(b"s3cret-s3cret-s3cret", b"1700000000." + body, hashlib.sha256).hexdigest()
    assert sign("s3cret-s3cret-s3cret", 1700000000, body) == f"sha256={expected}"


def test_verify_checks_the_mac_and_the_clock() -> None:
    body, secret = b"{}", "s3cret-s3cret-s3cret"
    signature = sign(secret, 1000, body)
    assert verify(secret, "1000", body, signature, now=1100)
    assert not verify(secret, "1000", body + b" ", signature, now=1100)
    assert not verify("another-secret-xxxx", "1000", body, signature, now=1100)
    assert not verify(secret, "1000", body, signature, now=2000)  # a replay, too late
    assert not verify(secret, "abc", body, signature, now=1000)


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"type": "Normal", "reason": "InstallSucceeded", "phase": "Running"}, Severity.INFO),
        ({"phase": "Provisioning"}, Severity.WARNING),  # a failure the reconciler will retry
        ({"phase": "Failed"}, Severity.CRITICAL),  # the failure after which it stopped
        ({"kind": EventKind.CATALOG, "reason": "SignatureInvalid", "phase": ""}, Severity.CRITICAL),
        ({"kind": EventKind.CATALOG, "reason": "Retrying", "phase": "Retrying"}, Severity.WARNING),
        ({"kind": EventKind.ROLLOUT, "reason": "GateFailed", "phase": "Halted"}, Severity.CRITICAL),
        ({"kind": EventKind.ROLLOUT, "reason": "GatewayFailed", "phase": "Progressing"}, Severity.WARNING),
        # A wave that waits for approval asks a person to act; an approval is news; a rejection or a void is a warning.
        (
            {"kind": EventKind.ROLLOUT, "type": "Normal", "reason": "AwaitingApproval", "phase": "AwaitingApproval"},
            Severity.WARNING,
        ),
        (
            {"kind": EventKind.ROLLOUT, "type": "Normal", "reason": "Approved", "phase": "AwaitingApproval"},
            Severity.INFO,
        ),
        ({"kind": EventKind.ROLLOUT, "reason": "Rejected", "phase": "Halted"}, Severity.WARNING),
        ({"kind": EventKind.ROLLOUT, "reason": "ApprovalVoid", "phase": "AwaitingApproval"}, Severity.WARNING),
        ({"kind": EventKind.CLUSTER, "reason": "Unreachable", "phase": "Unreachable"}, Severity.WARNING),
        ({"kind": EventKind.CLUSTER, "type": "Normal", "reason": "Reachable", "phase": "Reachable"}, Severity.INFO),
    ],
)
def test_severity(overrides: dict, expected: Severity) -> None:
    assert severity_of(facts(**overrides)) is expected


@pytest.mark.parametrize(
    ("rule", "event", "expected"),
    [
        (Filter(), facts(), True),
        (Filter(kinds=frozenset({"catalog"})), facts(), False),
        (Filter(reasons=frozenset({"InstallFailed"})), facts(), True),
        (Filter(reasons=frozenset({"UpgradeFailed"})), facts(), False),
        (Filter(min_severity=Severity.CRITICAL), facts(phase="Provisioning"), False),
        (Filter(min_severity=Severity.WARNING), facts(phase="Provisioning"), True),
        (Filter(clusters=frozenset({"east"})), facts(), True),
        (Filter(clusters=frozenset({"west"})), facts(), False),
        (Filter(clusters=frozenset({"east"})), facts(kind=EventKind.CATALOG, cluster=""), False),
        (Filter(labels={"tier": "prod"}), facts(), True),
        (Filter(labels={"tier": "dev"}), facts(), False),
        (Filter(gateway_ids=frozenset({"other"})), facts(), False),
        (Filter(tenant=True, owner_id=3), facts(), True),
        (Filter(tenant=True, owner_id=4), facts(), False),  # another tenant's gateway
        (Filter(tenant=True, owner_id=3), facts(kind=EventKind.CATALOG, owner_id=None), False),
        (Filter(tenant=True, owner_id=3), facts(kind=EventKind.ROLLOUT, owner_id=None), False),
        (Filter(tenant=True, owner_id=3), facts(kind=EventKind.CLUSTER, owner_id=None), False),
        (Filter(kinds=frozenset({"cluster"}), clusters=frozenset({"east"})), facts(kind=EventKind.CLUSTER), True),
    ],
)
def test_matching(rule: Filter, event: EventFacts, expected: bool) -> None:
    assert matches(rule, event) is expected


def test_the_v1_payload() -> None:
    payload = build_payload(facts(), Severity.CRITICAL, "key-1", "https://cp.example.com/")
    assert payload == {
        "version": "v1",
        "delivery": "key-1",
        "kind": "gateway",
        "id": "11111111-2222-3333-4444-555555555555",
        "name": "edge",
        "cluster": "east",
        "phase": "Failed",
        "event": {"id": 7, "type": "Warning", "reason": "InstallFailed"},
        "reason": "InstallFailed",
        "severity": "critical",
        "message": "helm install failed",
        "timestamp": "2026-01-02T03:04:05+00:00",
        "link": "https://cp.example.com/api/v1/gateways/11111111-2222-3333-4444-555555555555/",
    }
    assert json.loads(body_for(ReceiverKind.WEBHOOK, payload)) == payload
    assert body_for(ReceiverKind.WEBHOOK, payload) == body_for(ReceiverKind.WEBHOOK, dict(payload))  # stable bytes


def test_slack_gets_one_text_line() -> None:
    payload = build_payload(facts(message="x" * 5000), Severity.CRITICAL, "key-1", "https://cp.example.com")
    document = json.loads(body_for(ReceiverKind.SLACK, payload))
    assert list(document) == ["text"]
    assert document["text"].startswith(":rotating_light: [critical] gateway edge on east: InstallFailed: xxx")
    assert document["text"].endswith("|details>") and len(document["text"]) < 1300


POLICY = DeliveryRetryPolicy(base_seconds=10, cap_seconds=60, max_attempts=4)


def test_backoff_doubles_up_to_the_cap() -> None:
    assert [POLICY.delay(n).total_seconds() for n in (1, 2, 3, 4, 5)] == [10, 20, 40, 60, 60]


@pytest.mark.parametrize(
    ("attempts", "code", "retryable_error", "status", "wait"),
    [
        (1, 200, False, DeliveryStatus.DELIVERED, None),
        (1, 204, False, DeliveryStatus.DELIVERED, None),
        (1, 500, False, DeliveryStatus.PENDING, 10),
        (2, 503, False, DeliveryStatus.PENDING, 20),
        (1, 429, False, DeliveryStatus.PENDING, 10),
        (4, 500, False, DeliveryStatus.FAILED, None),  # attempts spent
        (1, 400, False, DeliveryStatus.FAILED, None),  # refused for good
        (1, 404, False, DeliveryStatus.FAILED, None),
        (1, 302, False, DeliveryStatus.FAILED, None),  # a redirect left unfollowed
        (1, None, True, DeliveryStatus.PENDING, 10),  # no connection
        (1, None, False, DeliveryStatus.FAILED, None),  # a refused URL
    ],
)
def test_judge(
    attempts: int, code: int | None, retryable_error: bool, status: DeliveryStatus, wait: int | None
) -> None:
    verdict = judge(POLICY, attempts, NOW, status_code=code, retryable_error=retryable_error)
    assert verdict.status is status
    assert verdict.next_attempt_at == (NOW + timedelta(seconds=wait) if wait else None)
