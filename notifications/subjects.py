"""Read an event and its object into ``EventFacts``, and a subscription into a ``Filter`` (the DB side of matching)."""

from __future__ import annotations

from catalogs.models import CatalogEvent
from catalogs.states import CatalogConditionType
from controlplane.events import ClusterReason
from controlplane.models import ClusterEvent
from gateways.models import GatewayEvent, ReleaseEvent
from notifications.choices import EventKind, Severity
from notifications.matching import EventFacts, Filter
from notifications.models import Subscription
from rollouts.models import RolloutEvent

__all__ = ["facts_for", "filter_of"]


def _gateway_facts(event_id: int) -> EventFacts | None:
    event = GatewayEvent.objects.select_related("gateway__cluster").filter(pk=event_id).first()
    if event is None:
        return None
    gateway = event.gateway
    return EventFacts(
        kind=EventKind.GATEWAY,
        event_id=event.pk,
        object_id=str(gateway.pk),
        name=gateway.name,
        type=event.type,
        reason=event.reason,
        message=event.message,
        timestamp=event.timestamp.isoformat(),
        phase=gateway.phase,
        cluster=gateway.cluster.name,
        owner_id=gateway.owner_id,
        gateway_id=str(gateway.pk),
        labels=dict(gateway.labels or {}),
    )


def _catalog_facts(event_id: int) -> EventFacts | None:
    event = CatalogEvent.objects.select_related("catalog").filter(pk=event_id).first()
    if event is None:
        return None
    catalog = event.catalog
    progressing = next((c for c in catalog.conditions or () if c.get("type") == CatalogConditionType.PROGRESSING), {})
    return EventFacts(
        kind=EventKind.CATALOG,
        event_id=event.pk,
        object_id=str(catalog.pk),
        name=catalog.name,
        type=event.type,
        reason=event.reason,
        message=event.message,
        timestamp=event.timestamp.isoformat(),
        phase=str(progressing.get("reason", "")),
        labels=dict(catalog.labels or {}),
    )


def _rollout_facts(event_id: int) -> EventFacts | None:
    event = RolloutEvent.objects.select_related("rollout").filter(pk=event_id).first()
    if event is None:
        return None
    rollout = event.rollout
    cluster = gateway_id = ""
    if event.gateway_name:
        target = rollout.targets.filter(gateway_name=event.gateway_name).values("cluster_name", "gateway_id").first()
        if target:
            cluster, gateway_id = target["cluster_name"], str(target["gateway_id"] or "")
    return EventFacts(
        kind=EventKind.ROLLOUT,
        event_id=event.pk,
        object_id=str(rollout.pk),
        name=rollout.name,
        type=event.type,
        reason=event.reason,
        message=event.message,
        timestamp=event.timestamp.isoformat(),
        phase=rollout.phase,
        cluster=cluster,
        gateway_id=gateway_id,
    )


def _cluster_facts(event_id: int) -> EventFacts | None:
    event = ClusterEvent.objects.select_related("cluster").filter(pk=event_id).first()
    if event is None:
        return None
    cluster = event.cluster
    phase = {True: ClusterReason.REACHABLE, False: ClusterReason.UNREACHABLE}.get(cluster.reachable, "")
    return EventFacts(
        kind=EventKind.CLUSTER,
        event_id=event.pk,
        object_id=str(cluster.pk),
        name=cluster.name,
        type=event.type,
        reason=event.reason,
        message=event.message,
        timestamp=event.timestamp.isoformat(),
        phase=phase,
        cluster=cluster.name,
    )


def _release_facts(event_id: int) -> EventFacts | None:
    event = ReleaseEvent.objects.select_related("release").filter(pk=event_id).first()
    if event is None:
        return None
    release = event.release
    return EventFacts(
        kind=EventKind.RELEASE,
        event_id=event.pk,
        object_id=str(release.pk),
        name=release.name,
        type=event.type,
        reason=event.reason,
        message=event.message,
        timestamp=event.timestamp.isoformat(),
        phase=release.status,
    )


LOADERS = {
    EventKind.GATEWAY: _gateway_facts,
    EventKind.CATALOG: _catalog_facts,
    EventKind.ROLLOUT: _rollout_facts,
    EventKind.CLUSTER: _cluster_facts,
    EventKind.RELEASE: _release_facts,
}


def facts_for(kind: str, event_id: int) -> EventFacts | None:
    """The facts of one recorded event, read now; None when it is gone (deleted with its object)."""
    return LOADERS[EventKind(kind)](event_id)


def filter_of(subscription: Subscription) -> Filter:
    """A subscription's filters; select ``owner`` when reading many."""
    tenant = subscription.for_tenant
    return Filter(
        kinds=frozenset(subscription.kinds or ()),
        reasons=frozenset(subscription.reasons or ()),
        min_severity=Severity(subscription.min_severity),
        clusters=frozenset(subscription.clusters or ()),
        labels=dict(subscription.labels or {}),
        gateway_ids=frozenset(subscription.gateways or ()),
        owner_id=subscription.owner_id if tenant else None,
        tenant=tenant,
    )
