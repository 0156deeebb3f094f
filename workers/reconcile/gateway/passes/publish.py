"""Save one pass's outcome: only what changed, only while the pass's lease holds, only for the spec it saw."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from gateways.models import Gateway, GatewayEvent
from gateways.states import ConditionType
from workers.reconcile.fence import locked_row
from workers.reconcile.gateway.outcome import GatewayOutcome
from workers.reconcile.gateway.request import GatewayRequest
from workers.reconcile.outcome import ConditionChange, apply_conditions

__all__ = ["changed_fields", "publish"]


def _status_fields(gateway: Gateway, request: GatewayRequest, outcome: GatewayOutcome, now: datetime) -> dict[str, Any]:
    changes = list(outcome.conditions)
    if request.image_policy is not None and not request.deleting:
        changes.append(ConditionChange(ConditionType.IMAGE_POLICY, *request.image_policy))
    if request.release_verified is not None and not request.deleting:
        changes.append(ConditionChange(ConditionType.VERIFIED, *request.release_verified))
    conditions = apply_conditions(gateway.conditions, changes, generation=request.generation, now=now)
    fields: dict[str, Any] = {"conditions": conditions}
    if outcome.window is not None:
        fields["window_held_until"] = outcome.window.until
    if outcome.phase:
        fields["phase"] = outcome.phase
    if outcome.route_address is not None:
        fields["route_address"] = outcome.route_address
    if outcome.failure_count is not None:
        fields["failure_count"] = outcome.failure_count
        fields["next_attempt_at"] = outcome.next_attempt_at
    if outcome.release is not None:
        fields.update(
            release_name=outcome.release.name,
            release_revision=outcome.release.revision,
            release_status=outcome.release.status,
            chart_version=outcome.release.chart_version or "",
        )
    if outcome.deployed_images is not None:
        fields.update(
            deployed_image=outcome.deployed_images.image,
            deployed_supervisor_image=outcome.deployed_images.supervisor_image,
        )
    # A change held for its maintenance window is not applied: its generation is not observed yet.
    held = outcome.window is not None and outcome.window.until is not None
    applicable = (
        request.values_error is None
        and request.chart_unavailable is None
        and not request.release_unverified
        and not held
    )
    if not request.deleting and not request.suspended and applicable and not outcome.cluster_outage:
        fields["observed_generation"] = request.generation
        if outcome.release is not None and request.release_id is not None:
            fields["deployed_release_id"] = uuid.UUID(request.release_id)
    return fields


def changed_fields(gateway: Gateway, request: GatewayRequest, outcome: GatewayOutcome, now: datetime) -> dict[str, Any]:
    """The status fields ``outcome`` would change on ``gateway``; empty when the row already says it all."""
    fields = _status_fields(gateway, request, outcome, now)
    return {name: value for name, value in fields.items() if getattr(gateway, name) != value}


def publish(request: GatewayRequest, outcome: GatewayOutcome, now: datetime, *, lease_token: str | None) -> bool:
    """Write ``outcome``; return False when it was not applied: stale, or fenced out.

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
            GatewayEvent(gateway=gateway, type=e.type, reason=e.reason, message=e.message[:2048])
            for e in outcome.events
        )
        if outcome.delete_row and gateway.deletion_requested_at is not None:
            gateway.delete()
            return True
        if not locked.current or (gateway.deletion_requested_at is not None) != request.deleting:
            return False
        fields = changed_fields(gateway, request, outcome, now)
        if fields or outcome.events:
            Gateway.objects.filter(pk=gateway.pk).update(**fields, last_reconciled_at=now)
    return True
