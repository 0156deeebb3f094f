"""Save one pass's result: events always, status only if the spec did not change meanwhile."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from controlplane.conditions import set_condition
from gateways.models import Gateway, GatewayEvent
from workers.reconcile.gateway.request import GatewayRequest
from workers.reconcile.gateway.result import PassResult

__all__ = ["publish"]


def publish(request: GatewayRequest, result: PassResult, now: datetime) -> bool:
    """Write ``result``; return False when it was stale (the spec or deletion moved on) and not applied."""
    with transaction.atomic():
        gateway = Gateway.objects.select_for_update().filter(pk=request.gateway_id).first()
        if gateway is None:
            return True
        GatewayEvent.objects.bulk_create(
            GatewayEvent(gateway=gateway, type=e.type, reason=e.reason, message=e.message[:2048]) for e in result.events
        )
        if result.delete_row and gateway.deletion_requested_at is not None:
            gateway.delete()
            return True
        if gateway.generation != request.generation or (gateway.deletion_requested_at is not None) != request.deleting:
            return False
        conditions = gateway.conditions
        for change in result.conditions:
            conditions = set_condition(
                conditions, type_=change.type, status=change.status, reason=change.reason,
                message=change.message[:1024], generation=request.generation, now=now,
            )
        fields: dict[str, object] = {"conditions": conditions, "last_reconciled_at": now}
        if result.phase:
            fields["phase"] = result.phase
        if result.route_address is not None:
            fields["route_address"] = result.route_address
        if result.failure_count is not None:
            fields["failure_count"] = result.failure_count
            fields["next_attempt_at"] = result.next_attempt_at
        if result.release is not None:
            fields.update(
                release_name=result.release.name,
                release_revision=result.release.revision,
                release_status=result.release.status,
                chart_version=result.release.chart_version or "",
            )
        if not request.deleting and not request.suspended and request.values_error is None:
            fields["observed_generation"] = request.generation
        Gateway.objects.filter(pk=gateway.pk).update(**fields)
    return True
