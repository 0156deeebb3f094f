"""Named constants for notifications (no Django imports beyond the choices base)."""

from __future__ import annotations

from django.db import models

__all__ = ["DeliveryStatus", "EventKind", "ReceiverKind", "Severity"]


class ReceiverKind(models.TextChoices):
    WEBHOOK = "webhook", "Signed HTTPS webhook"
    SLACK = "slack", "Slack-compatible incoming webhook"


class EventKind(models.TextChoices):
    """The kinds of object whose recorded events can be subscribed to."""

    GATEWAY = "gateway"
    CATALOG = "catalog"
    ROLLOUT = "rollout"
    CLUSTER = "cluster"  # reachability: the circuit breaker opening (Unreachable) and closing (Reachable)
    RELEASE = "release"  # a gateway release's verification (VerificationFailed)


class Severity(models.TextChoices):
    """How bad an event is; a subscription asks for a minimum (see ``notifications.matching.severity_of``)."""

    INFO = "info"
    WARNING = "warning"
    CRITICAL = "critical"


class DeliveryStatus(models.TextChoices):
    PENDING = "pending"  # waiting for its (next) attempt
    SENDING = "sending"  # an attempt is in flight, under a lease
    DELIVERED = "delivered"  # the receiver answered 2xx; never sent again
    FAILED = "failed"  # given up: attempts spent, a 4xx, or a refused address
