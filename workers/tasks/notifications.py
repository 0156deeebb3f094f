"""Notification tasks: match recorded events (``dispatch_notifications``), send one delivery
(``deliver_notification``, retried with backoff), and the periodic sweep that picks up what a lost message or a
killed worker left behind (``sweep_notifications``)."""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import Task, shared_task
from django.conf import settings
from django.utils import timezone

from controlplane.tasks import TaskName
from notifications import delivery, outbox
from workers.tasks.transient import retried_when_transient

__all__ = ["deliver_notification", "dispatch_notifications", "sweep_notifications"]

log = logging.getLogger(__name__)


@shared_task(bind=True, name=TaskName.DISPATCH_NOTIFICATIONS, ignore_result=True)
def dispatch_notifications(self: Task) -> None:
    with retried_when_transient(self):
        while outbox.dispatch() >= outbox.BATCH:
            pass


@shared_task(bind=True, name=TaskName.DELIVER_NOTIFICATION, ignore_result=True, acks_late=True)
def deliver_notification(self: Task, delivery_id: str) -> None:
    """One attempt; a retryable failure schedules the next after the backoff (the row says when, too)."""
    with retried_when_transient(self):
        retry_in = delivery.deliver(delivery_id)
    if retry_in is not None:
        deliver_notification.apply_async((delivery_id,), countdown=retry_in)


@shared_task(bind=True, name=TaskName.SWEEP_NOTIFICATIONS, ignore_result=True)
def sweep_notifications(self: Task) -> None:
    """Beat (NOTIFICATIONS_SWEEP_SECONDS): dispatch leftover events; resend overdue and abandoned deliveries."""
    with retried_when_transient(self):
        while outbox.dispatch() >= outbox.BATCH:
            pass
        grace = timedelta(seconds=settings.NOTIFICATIONS_SWEEP_SECONDS)
        due = delivery.due_ids(timezone.now(), grace)
    for delivery_id in due:
        deliver_notification.delay(str(delivery_id))
    if due:
        log.info("notifications sweep: %d deliveries due again", len(due))
