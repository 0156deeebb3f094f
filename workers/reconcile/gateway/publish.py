"""Save one pass's outcome: only what changed, only while the pass's lease holds, only for the spec it saw."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from gateways.models import Gateway, GatewayEvent
from gateways.states import ConditionType
from workers.reconcile.fence import locked_row
from workers.reconcile.gateway.request import GatewayRequest
from workers.reconcile.outcome import ConditionChange, Outcome, apply_conditions

__all__ = ["changed_fields", "publish"]


def _status_fields(gateway: Gateway, request: GatewayRequest, result: Outcome, now: datetime) -> dict[str, Any]:
    changes = list(result.conditions)
    if request.image_policy is not None and not request.deleting:
        changes.append(ConditionChange(ConditionType.IMAGE_POLICY, *request.image_policy))
    conditions = apply_conditions(gateway.conditions, changes, generation=request.generation, now=now)
    fields: dict[str, Any] = {"conditions": conditions}
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
    if result.deployed_images is not None:
        fields.update(
            deployed_image=result.deployed_images.image,
            deployed_supervisor_image=result.deployed_images.supervisor_image,
        )
    applicable = request.values_error is None and request.chart_unavailable is None
    if not request.deleting and not request.suspended and applicable and not result.cluster_outage:
        fields["observed_generation"] = request.generation
        if result.release is not None and request.release_id is not None:
            fields["deployed_release_id"] = uuid.UUID(request.release_id)
    return fields


def changed_fields(gateway: Gateway, request: GatewayRequest, result: Outcome, now: datetime) -> dict[str, Any]:
    """The status fields ``result`` would change on ``gateway``; empty when the row already says it all."""
    fields = _status_fields(gateway, request, result, now)
    return {name: value for name, value in fields.items() if getattr(gateway, name) != value}


def publish(request: GatewayRequest, result: Outcome, now: datetime, *, lease_token: str | None) -> bool:
    """Write ``result``; return False when it was not applied: stale, or fenced out.

    With ``lease_token`` the pass must still hold that lease. Without one (the fleet resync) no pass
    may hold the gateway at all, so a running pass always has the last word.
    """
    with locked_row(
        Gateway, request.gateway_id, generation=request.generation, lease_token=lease_token, now=now
    ) as locked:
        if locked is None:
            return True
        if not locked.leased:
            return False
        gateway = locked.row
        GatewayEvent.objects.bulk_create(
            GatewayEvent(gateway=gateway, type=e.type, reason=e.reason, message=e.message[:2048]) for e in result.events
        )
        if result.delete_row and gateway.deletion_requested_at is not None:
            gateway.delete()
            return True
        if not locked.current or (gateway.deletion_requested_at is not None) != request.deleting:
            return False
        fields = changed_fields(gateway, request, result, now)
        if fields or result.events:
            Gateway.objects.filter(pk=gateway.pk).update(**fields, last_reconciled_at=now)
    return True
