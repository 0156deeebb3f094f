"""From recorded events to deliveries, transaction-safely (a transactional outbox).

1. ``on_events_recorded`` runs inside the transaction that records events (``controlplane.models.events_recorded``)
   and adds one ``PendingEvent`` row per event, so the events and the rows commit, or vanish, together. Right
   after the commit the recording process dispatches them itself, so an event is judged (its severity comes
   from its object's phase) as its transaction left the object; if that fails, a task or the sweep does it.
2. ``dispatch`` takes pending rows (skipping rows another dispatcher holds), matches each event against the
   enabled subscriptions, creates one ``Delivery`` per match (its idempotency key is derived from the event and
   the subscription, so a second dispatch of the same event creates nothing), deletes the rows, and enqueues
   the new deliveries once committed. Beat's sweep dispatches whatever a lost message left behind.

Nothing is written when no subscription is enabled: events recorded then are not notified later.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import transaction

from catalogs.models import CatalogEvent
from controlplane.dispatch import send
from controlplane.models import ClusterEvent
from controlplane.tasks import TaskName
from gateways.models import GatewayEvent, ReleaseEvent
from notifications.choices import EventKind
from notifications.matching import matches, severity_of
from notifications.models import Delivery, PendingEvent, Subscription
from notifications.payloads import build_payload
from notifications.subjects import facts_for, filter_of
from rollouts.models import RolloutEvent

__all__ = [
    "KIND_OF",
    "delivery_key",
    "dispatch",
    "dispatch_after_commit",
    "on_events_recorded",
]

log = logging.getLogger(__name__)

KIND_OF: dict[type, EventKind] = {
    GatewayEvent: EventKind.GATEWAY,
    CatalogEvent: EventKind.CATALOG,
    RolloutEvent: EventKind.ROLLOUT,
    ClusterEvent: EventKind.CLUSTER,
    ReleaseEvent: EventKind.RELEASE,
}
KEY_NAMESPACE = uuid.UUID("5b0c7f64-3f43-4b52-9a55-6f0f1e3a8c21")
BATCH = 200


def delivery_key(kind: str, event_id: int, subscription_id: Any) -> uuid.UUID:
    """The idempotency key of one event for one subscription: the same however often it is dispatched."""
    return uuid.uuid5(KEY_NAMESPACE, f"{kind}/{event_id}/{subscription_id}")


def on_events_recorded(sender: type, events: list[Any], **_: Any) -> None:
    kind = KIND_OF.get(sender)
    if kind is None or not Subscription.objects.filter(enabled=True).exists():
        return
    PendingEvent.objects.bulk_create(
        [PendingEvent(kind=kind, event_id=event.pk) for event in events], ignore_conflicts=True
    )
    transaction.on_commit(dispatch_after_commit)


def dispatch_after_commit() -> None:
    """Match what was just committed; never fail the recorder (a task, or beat's sweep, takes over)."""
    try:
        dispatch()
    except Exception:
        log.exception("notifications: dispatch after commit failed; handing it to a worker")
        send(TaskName.DISPATCH_NOTIFICATIONS)


def _deliveries_for(row: PendingEvent, subscriptions: Iterable[Subscription]) -> list[Delivery]:
    facts = facts_for(row.kind, row.event_id)
    if facts is None:  # the event went with its object
        return []
    severity = severity_of(facts)
    found = []
    for subscription in subscriptions:
        if subscription.for_tenant and not subscription.receiver.tenants_may_subscribe:
            continue  # the receiver was closed to tenants after they subscribed
        if not matches(filter_of(subscription), facts):
            continue
        key = delivery_key(row.kind, row.event_id, subscription.pk)
        found.append(
            Delivery(
                idempotency_key=key,
                subscription=subscription,
                receiver_id=subscription.receiver_id,
                owner_id=subscription.owner_id,
                event_kind=row.kind,
                event_id=row.event_id,
                object_id=facts.object_id,
                object_name=facts.name[:253],
                reason=facts.reason[:64],
                severity=severity,
                payload=build_payload(facts, severity, str(key), settings.NOTIFICATIONS_LINK_BASE_URL),
            )
        )
    return found


def dispatch(limit: int = BATCH) -> int:
    """Match up to ``limit`` pending events; the number of deliveries created."""
    with transaction.atomic():
        rows = list(PendingEvent.objects.select_for_update(skip_locked=True).order_by("id")[:limit])
        if not rows:
            return 0
        subscriptions = list(Subscription.objects.filter(enabled=True).select_related("owner", "receiver"))
        deliveries = [d for row in rows for d in _deliveries_for(row, subscriptions)]
        Delivery.objects.bulk_create(deliveries, ignore_conflicts=True)
        PendingEvent.objects.filter(pk__in=[row.pk for row in rows]).delete()
        keys = [d.idempotency_key for d in deliveries]
        ids = list(Delivery.objects.filter(idempotency_key__in=keys).values_list("pk", flat=True))
        transaction.on_commit(lambda: [send(TaskName.DELIVER_NOTIFICATION, pk) for pk in ids])
    if ids:
        log.info("notifications: %d events matched %d deliveries", len(rows), len(ids))
    return len(ids)
