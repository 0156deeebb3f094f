"""What a receiver gets (pure): the versioned v1 payload, and the bytes each receiver kind is sent.

A webhook gets the payload itself as JSON; a Slack-compatible receiver gets ``{"text": ...}``, one line.
Payloads stay small: a message is cut to ``MESSAGE_CHARS``. A change that removes or renames a field gets a
new version; adding a field does not.
"""

from __future__ import annotations

import json
from typing import Any

from notifications.choices import EventKind, ReceiverKind, Severity
from notifications.matching import EventFacts

__all__ = ["API_PATHS", "PAYLOAD_VERSION", "TEST_KIND", "body_for", "build_payload", "slack_text", "trial_payload"]

PAYLOAD_VERSION = "v1"
MESSAGE_CHARS = 1024
TEST_KIND = "test"  # the kind of a receiver test's payload (POST /api/v1/receivers/{id}/test/)
API_PATHS = {
    EventKind.GATEWAY: "gateways",
    EventKind.CATALOG: "catalogs",
    EventKind.ROLLOUT: "rollouts",
    EventKind.CLUSTER: "clusters",
    EventKind.RELEASE: "releases",
}
SLACK_MARKS = {
    Severity.INFO: ":information_source:",
    Severity.WARNING: ":warning:",
    Severity.CRITICAL: ":rotating_light:",
}


def build_payload(facts: EventFacts, severity: Severity, delivery: str, base_url: str) -> dict[str, Any]:
    """The v1 payload of one event for one subscription (``delivery`` is its idempotency key)."""
    return {
        "version": PAYLOAD_VERSION,
        "delivery": delivery,
        "kind": str(facts.kind),
        "id": facts.object_id,
        "name": facts.name,
        "cluster": facts.cluster or None,
        "phase": facts.phase or None,
        "event": {"id": facts.event_id, "type": facts.type, "reason": facts.reason},
        "reason": facts.reason,
        "severity": str(severity),
        "message": facts.message[:MESSAGE_CHARS],
        "timestamp": facts.timestamp,
        "link": f"{base_url.rstrip('/')}/api/v1/{API_PATHS[facts.kind]}/{facts.object_id}/",
    }


def trial_payload(receiver_id: str, receiver_name: str, delivery: str, timestamp: str, base_url: str) -> dict[str, Any]:
    """A v1 payload for a receiver test: the same shape, ``kind`` ``test``, linking to the receiver."""
    return {
        "version": PAYLOAD_VERSION,
        "delivery": delivery,
        "kind": TEST_KIND,
        "id": receiver_id,
        "name": receiver_name,
        "cluster": None,
        "phase": None,
        "event": None,
        "reason": "Test",
        "severity": str(Severity.INFO),
        "message": "A test notification from the control plane",
        "timestamp": timestamp,
        "link": f"{base_url.rstrip('/')}/api/v1/receivers/{receiver_id}/",
    }


def slack_text(payload: dict[str, Any]) -> str:
    where = f" on {payload['cluster']}" if payload.get("cluster") else ""
    mark = SLACK_MARKS.get(payload["severity"], "")
    return (
        f"{mark} [{payload['severity']}] {payload['kind']} {payload['name']}{where}: {payload['reason']}: "
        f"{payload['message']} <{payload['link']}|details>"
    ).strip()


def body_for(kind: ReceiverKind | str, payload: dict[str, Any]) -> bytes:
    """The request body for a receiver of ``kind``; the same payload always gives the same bytes."""
    document = {"text": slack_text(payload)} if kind == ReceiverKind.SLACK else payload
    return json.dumps(document, separators=(",", ":"), sort_keys=True).encode()
