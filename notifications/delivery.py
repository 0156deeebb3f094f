"""Send one delivery: claim it under a lease, POST it, record the outcome. At least once, never after success.

The guarantee:
- A delivery is sent until a receiver answers 2xx, or its attempts are spent, or the receiver refuses it
  for good (another 4xx, or an address the SSRF rules forbid).
- Every attempt carries the same ``X-Controlplane-Delivery`` (the idempotency key) and body; only the
  timestamp and signature headers change. A worker killed after the receiver got the request but before the
  answer was recorded leaves the claim to lapse; the delivery is then sent again with the same key, so a
  receiver must dedupe on it.
- Once a delivery is recorded as delivered it is never sent again: each attempt claims the row under a lock,
  and a redelivered task message (``acks_late``), a sweep or a second worker finds it delivered and stops.
"""

from __future__ import annotations

import logging
import time
import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from notifications.choices import DeliveryStatus, ReceiverKind
from notifications.models import Delivery, Receiver, transport_policy
from notifications.payloads import PAYLOAD_VERSION, TEST_KIND, body_for, trial_payload
from notifications.policy import DeliveryRetryPolicy, judge
from notifications.signing import SIGNATURE_HEADER, TIMESTAMP_HEADER, sign
from notifications.transport import Answer, RefusedUrl, SendFailed, post

__all__ = [
    "DELIVERY_HEADER",
    "Attempt",
    "ReceiverCheck",
    "check_receiver",
    "claim",
    "deliver",
    "due_ids",
    "headers_for",
    "retry_policy",
]

log = logging.getLogger(__name__)

DELIVERY_HEADER = "X-Controlplane-Delivery"
EVENT_HEADER = "X-Controlplane-Event"
USER_AGENT = f"controlplane-notifications/{PAYLOAD_VERSION}"
LEASE_MARGIN_SECONDS = 2


def retry_policy() -> DeliveryRetryPolicy:
    return DeliveryRetryPolicy(
        base_seconds=settings.NOTIFICATIONS_RETRY_BASE_SECONDS,
        cap_seconds=settings.NOTIFICATIONS_RETRY_CAP_SECONDS,
        max_attempts=settings.NOTIFICATIONS_MAX_ATTEMPTS,
    )


def lease_seconds() -> float:
    """How long a claim holds: every hop may take the full timeout, plus a margin."""
    return settings.NOTIFICATIONS_TIMEOUT_SECONDS * (settings.NOTIFICATIONS_MAX_REDIRECTS + 1) + LEASE_MARGIN_SECONDS


class Attempt:
    """A claimed delivery: what to send, and the attempt number that fences the outcome's write."""

    def __init__(self, delivery: Delivery) -> None:
        self.delivery = delivery
        self.number = delivery.attempts


def claim(delivery_id: str, now: datetime) -> Attempt | None:
    """Take the delivery for one attempt; None when it is done, not due, or another worker's claim holds."""
    with transaction.atomic():
        delivery = Delivery.objects.select_for_update().select_related("receiver").filter(pk=delivery_id).first()
        if delivery is None:
            return None
        if delivery.status in (DeliveryStatus.DELIVERED, DeliveryStatus.FAILED):
            log.info("delivery %s is already %s; not sent again", delivery_id, delivery.status)
            return None
        if delivery.status == DeliveryStatus.SENDING and delivery.lease_expires_at and delivery.lease_expires_at > now:
            return None
        if delivery.status == DeliveryStatus.PENDING and delivery.next_attempt_at and delivery.next_attempt_at > now:
            return None
        delivery.status, delivery.attempts = DeliveryStatus.SENDING, delivery.attempts + 1
        delivery.last_attempt_at, delivery.lease_expires_at = now, now + timedelta(seconds=lease_seconds())
        delivery.save(update_fields=("status", "attempts", "last_attempt_at", "lease_expires_at"))
    return Attempt(delivery)


def headers_for(receiver: Receiver, key: str, event: str, body: bytes, timestamp: int) -> dict[str, str]:
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        DELIVERY_HEADER: key,
        EVENT_HEADER: event,
        TIMESTAMP_HEADER: str(timestamp),
    }
    if receiver.kind == ReceiverKind.WEBHOOK and receiver.secret:
        headers[SIGNATURE_HEADER] = sign(receiver.secret, timestamp, body)
    return headers


def _send(delivery: Delivery) -> tuple[Answer | None, str, bool]:
    """POST the delivery; (the answer or None, an error message, whether a missing answer is worth a retry)."""
    body = body_for(delivery.receiver.kind, delivery.payload)
    event = f"{delivery.event_kind}/{delivery.reason}"
    headers = headers_for(delivery.receiver, str(delivery.idempotency_key), event, body, int(time.time()))
    try:
        return post(delivery.receiver.url, body, headers, transport_policy()), "", False
    except RefusedUrl as exc:
        return None, f"refused: {exc}", False
    except SendFailed as exc:
        return None, str(exc), True


def record(
    attempt: Attempt, answer: Answer | None, error: str, retryable: bool, now: datetime
) -> DeliveryStatus | None:
    """Write the attempt's outcome, only while the claim is still this attempt's; the new status, or None."""
    code = answer.status if answer else None
    verdict = judge(retry_policy(), attempt.number, now, status_code=code, retryable_error=retryable)
    if answer is not None and verdict.status != DeliveryStatus.DELIVERED:
        error = f"HTTP {answer.status} from {answer.url}: {answer.text}".strip()
    fields = {
        "status": verdict.status,
        "response_code": code,
        "last_error": error[:1024],
        "lease_expires_at": None,
        "next_attempt_at": verdict.next_attempt_at,
        "delivered_at": now if verdict.status == DeliveryStatus.DELIVERED else None,
    }
    updated = Delivery.objects.filter(
        pk=attempt.delivery.pk, status=DeliveryStatus.SENDING, attempts=attempt.number
    ).update(**fields)
    return verdict.status if updated else None


def deliver(delivery_id: str) -> float | None:
    """One attempt at a delivery; the seconds until the next one when it is to be retried."""
    attempt = claim(delivery_id, timezone.now())
    if attempt is None:
        return None
    answer, error, retryable = _send(attempt.delivery)
    now = timezone.now()
    status = record(attempt, answer, error, retryable, now)
    log.info(
        "delivery %s (key %s) attempt %d: %s %s",
        delivery_id,
        attempt.delivery.idempotency_key,
        attempt.number,
        status,
        answer.status if answer else error,
    )
    if status == DeliveryStatus.PENDING:
        return retry_policy().delay(attempt.number).total_seconds()
    return None


def due_ids(now: datetime, grace: timedelta) -> list[uuid.UUID]:
    """Deliveries a lost task message left behind: pending and overdue by ``grace``, or claimed by a lapsed lease."""
    overdue = Q(status=DeliveryStatus.PENDING) & (Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now - grace))
    overdue &= Q(created_at__lte=now - grace)
    lapsed = Q(status=DeliveryStatus.SENDING, lease_expires_at__lte=now)
    return list(Delivery.objects.filter(overdue | lapsed).values_list("pk", flat=True)[:500])


class ReceiverCheck:
    """What a receiver test got back: the answer, or why there was none."""

    def __init__(self, key: str, answer: Answer | None, message: str) -> None:
        self.key, self.answer, self.message = key, answer, message

    @property
    def delivered(self) -> bool:
        return self.answer is not None and 200 <= self.answer.status < 300


def check_receiver(receiver: Receiver) -> ReceiverCheck:
    """POST a test payload to ``receiver`` now, under the same rules as a delivery; ``RefusedUrl`` propagates."""
    key, now = str(uuid.uuid4()), timezone.now()
    payload = trial_payload(str(receiver.pk), receiver.name, key, now.isoformat(), settings.NOTIFICATIONS_LINK_BASE_URL)
    body = body_for(receiver.kind, payload)
    headers = headers_for(receiver, key, f"{TEST_KIND}/Test", body, int(now.timestamp()))
    try:
        answer = post(receiver.url, body, headers, transport_policy())
    except SendFailed as exc:
        return ReceiverCheck(key, None, str(exc))
    return ReceiverCheck(key, answer, answer.text)
