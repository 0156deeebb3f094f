"""The approval gate of a rollout wave: plan it, keep its plan current, and open it only for the approved plan.

``prepare`` runs before the rollout row is locked, because it reads clusters and renders charts. For the
current wave, when it needs approval (``Rollout.require_approval``, or a cluster of the wave with
``rollouts_require_approval``) and has gateways still to start, it compares what fed the wave's current
plan with what feeds it now (``rollouts.approval.Inputs``):

- no plan yet: plan every gateway still to start, as ``/gateways/{id}/plan/`` does, on the target release;
  store the plans and their hash; the wave waits (event ``AwaitingApproval``);
- an input changed: the plan (approved or not) is void; plan again and wait again, with an event naming
  what changed (``ApprovalVoid`` if it was approved);
- approved and unchanged: plan again and recompute the hash; only if it matches the approved one (restricted
  to the gateways still to start) is the hash returned, and the gate may open.

``gate`` runs under the rollout row lock: it opens only for the hash ``prepare`` just verified, and checks
the inputs it can read from the database once more, with the gateway rows locked, so a spec change that
lands after ``prepare`` holds the wave too.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
from collections.abc import Iterable
from typing import Any, Protocol

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction

from cluster_vocabulary.kubernetes import EventType
from controlplane.models import ManagedCluster
from gateways.models import Gateway, GatewayRelease
from gateways.plans import spec_of
from rollouts.approval import ApprovalState, Gate, Inputs, changes, digest, plan_changes, plan_hash
from rollouts.models import Rollout, RolloutEvent, RolloutTarget, WavePlan
from rollouts.states import Reason, RolloutPhase, TargetState
from workers.drivers import errors

__all__ = ["WavePlanner", "gate", "prepare"]

log = logging.getLogger(__name__)

GATED_PHASES = (RolloutPhase.PROGRESSING, RolloutPhase.AWAITING_APPROVAL)
HASH_SHOWN = 12


class WavePlanner(Protocol):
    """The cluster side of planning a wave (``workers.wave_planning``; the rollout controller may not import the
    gateway reconciler, whose planner it reuses)."""

    def api_versions(self, clusters: Iterable[ManagedCluster]) -> dict[str, str]:
        """Per cluster name, a digest of what the cluster serves."""
        ...

    def plans(self, rollout: Rollout, targets: list[RolloutTarget]) -> dict[str, dict[str, Any]]:
        """Per gateway id, the plan of the target's gateway as the rollout would leave it."""
        ...


def _to_start(rollout: Rollout) -> list[RolloutTarget]:
    """The current wave's targets still to start whose gateway is there and not being deleted."""
    return list(
        rollout.targets.filter(
            wave=rollout.current_wave,
            state=TargetState.PENDING,
            gateway__isnull=False,
            gateway__deletion_requested_at__isnull=True,
        )
        .select_related("gateway__cluster", "gateway__owner")
        .order_by("position")
    )


def needs_approval(rollout: Rollout, clusters: Iterable[str]) -> bool:
    return (
        rollout.require_approval
        or ManagedCluster.objects.filter(name__in=set(clusters), rollouts_require_approval=True).exists()
    )


def current_plan(rollout: Rollout) -> WavePlan | None:
    return WavePlan.objects.filter(rollout=rollout, wave=rollout.current_wave).first()


def _spec_digest(gateway: Gateway) -> str:
    """A keyed digest of the gateway's spec (it holds the DB URI, so a plain hash could be guessed from)."""
    text = json.dumps(spec_of(gateway), sort_keys=True, cls=DjangoJSONEncoder)
    return hmac.new(settings.SECRET_KEY.encode(), text.encode(), hashlib.sha256).hexdigest()


def _release_digest(release: GatewayRelease) -> str:
    return digest(
        {
            "id": str(release.pk),
            "chart": release.chart,
            "version": release.version,
            "values": release.values,
            "image": release.image,
            "supervisor_image": release.supervisor_image,
        }
    )


def _db_inputs(rollout: Rollout, targets: list[RolloutTarget], api_versions: dict[str, str]) -> Inputs:
    gateways = [t.gateway for t in targets if t.gateway is not None]
    return Inputs(
        release=_release_digest(rollout.target_release),
        specs={str(g.pk): _spec_digest(g) for g in gateways},
        names={str(g.pk): g.name for g in gateways},
        clusters={str(g.pk): g.cluster.name for g in gateways},
        api_versions=api_versions,
    )


def _store(rollout_id: str, seen: WavePlan | None, inputs: Inputs, plans: dict[str, Any], changed: list[str]) -> None:
    """Store a new plan of the current wave (voiding ``seen``, the plan it replaces) with its event; nothing if
    another worker holds the rollout or the wave's plan moved on meanwhile."""
    with transaction.atomic():
        rollout = Rollout.objects.select_for_update(skip_locked=True).filter(pk=rollout_id).first()
        if rollout is None or rollout.phase not in GATED_PHASES:
            return
        latest = current_plan(rollout)
        if (latest.pk if latest else None) != (seen.pk if seen else None):
            return
        if latest is not None and seen is not None and latest.state != seen.state:
            return
        new = WavePlan.objects.create(
            rollout=rollout, wave=rollout.current_wave, plan_hash=plan_hash(plans), plans=plans, inputs=inputs.as_dict()
        )
        what = "; ".join(changed)
        shown = new.plan_hash[:HASH_SHOWN]
        if seen is None:
            reason, warning = Reason.AWAITING_APPROVAL, False
            message = f"Wave {rollout.current_wave} planned ({len(plans)} gateways); plan {shown} awaits approval"
        else:
            WavePlan.objects.filter(pk=seen.pk).update(state=ApprovalState.VOID, reason=f"Changed: {what}"[:2048])
            approved = seen.state == ApprovalState.APPROVED
            reason, warning = (Reason.APPROVAL_VOID, True) if approved else (Reason.AWAITING_APPROVAL, False)
            before = "approval of plan" if approved else "plan"
            message = (
                f"Wave {rollout.current_wave}: the {before} {seen.plan_hash[:HASH_SHOWN]} is void, {what} "
                f"changed; planned again, plan {shown} awaits approval"
            )
        RolloutEvent.objects.create(
            rollout=rollout,
            wave=rollout.current_wave,
            reason=reason,
            message=message[:2048],
            type=EventType.WARNING if warning else EventType.NORMAL,
        )
    log.info("rollout %s: wave %d planned, %s", rollout.name, rollout.current_wave, message)


def _plan_failed(rollout: Rollout, problem: str) -> None:
    """One warning event per distinct problem (the next pass tries again)."""
    last = rollout.events.first()
    message = f"Wave {rollout.current_wave} could not be planned: {problem}"[:2048]
    if last is None or last.reason != Reason.PLAN_FAILED or last.message != message:
        RolloutEvent.objects.create(
            rollout=rollout,
            wave=rollout.current_wave,
            reason=Reason.PLAN_FAILED,
            message=message,
            type=EventType.WARNING,
        )


def prepare(rollout_id: str, planner: WavePlanner | None) -> str | None:
    """Keep the current wave's plan current (see the module); the approved hash, once verified against fresh plans
    of the gateways still to start, else None."""
    rollout = Rollout.objects.select_related("target_release").filter(pk=rollout_id).first()
    if rollout is None or rollout.phase not in GATED_PHASES:
        return None
    targets = _to_start(rollout)
    if not targets or not needs_approval(rollout, (t.cluster_name for t in targets)):
        return None
    seen = current_plan(rollout)
    if seen is not None and seen.state == ApprovalState.REJECTED:
        return None
    if planner is None:
        raise RuntimeError(f"Rollout {rollout.name}'s wave {rollout.current_wave} needs approval, and no planner")
    try:
        clusters = {t.gateway.cluster.pk: t.gateway.cluster for t in targets if t.gateway}
        api_versions = planner.api_versions(clusters.values())
        inputs = _db_inputs(rollout, targets, api_versions)
        if seen is None:
            _store(rollout_id, seen, inputs, planner.plans(rollout, targets), [])
            return None
        planned = Inputs.from_dict(seen.inputs)
        planned = planned.without(_started(rollout, planned))
        changed = changes(planned, inputs)
        if not changed and seen.state == ApprovalState.AWAITING:
            return None
        plans = planner.plans(rollout, targets)
        if not changed:
            approved = {g: seen.plans[g] for g in inputs.specs if g in seen.plans}
            if plan_hash(approved) == plan_hash(plans):
                return seen.plan_hash
            changed = plan_changes(approved, plans, inputs.names)
        _store(rollout_id, seen, inputs, plans, changed)
    except errors.DriverError as exc:
        _plan_failed(rollout, f"the cluster could not be read: {exc.message}")
    return None


def _started(rollout: Rollout, planned: Inputs) -> set[str]:
    """The planned gateways that started since: they left the wave's gateways to start by design. (Those deleted
    since, or being deleted, did not: they changed the set of targets.)"""
    started = (
        RolloutTarget.objects.filter(rollout=rollout, gateway_id__in=list(planned.specs))
        .exclude(state__in=(TargetState.PENDING, TargetState.SKIPPED))
        .values_list("gateway_id", flat=True)
    )
    return {str(g) for g in started}


def gate(rollout: Rollout, verified: str | None) -> Gate:
    """Under the rollout row lock: open when the wave needs no approval, or ``verified`` is its approved plan's hash
    and the specs, the release and the targets are still those it was planned from (the gateway rows stay locked
    until the step commits)."""
    targets = _to_start(rollout)
    if not targets or not needs_approval(rollout, (t.cluster_name for t in targets)):
        return Gate.OPEN
    plan = current_plan(rollout)
    if plan is None or plan.state != ApprovalState.APPROVED or plan.plan_hash != verified:
        return Gate.AWAITING
    list(Gateway.objects.select_for_update(of=("self",)).filter(pk__in=[t.gateway_id for t in targets]))
    planned = Inputs.from_dict(plan.inputs)
    now = _db_inputs(rollout, _to_start(rollout), dict(planned.api_versions))
    planned = planned.without(_started(rollout, planned))
    return Gate.AWAITING if changes(planned, now) else Gate.OPEN
