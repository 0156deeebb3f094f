"""Rollout operations shared by the API and the console: create (select, plan, claim), pause, resume, abort.

Creating a rollout claims its gateways: the selected gateway rows are locked, and a gateway already
in another active rollout is a ``RolloutConflict`` naming that rollout. The controller task is
enqueued once the transaction commits.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from cluster_vocabulary.kubernetes import ConditionStatus
from controlplane.conditions import set_condition
from controlplane.dispatch import enqueue_on_commit
from controlplane.json_lookups import labels_include
from controlplane.tasks import TaskName
from gateways.models import Gateway, GatewayRelease
from gateways.release_trust import unsigned_release_problem
from rollouts.choices import ACTIVE_PHASES, RolloutPhase
from rollouts.models import Rollout, RolloutEvent, RolloutTarget
from rollouts.planning import Candidate, PlanError, plan_waves
from rollouts.states import ConditionType, Reason

__all__ = [
    "RolloutConflict",
    "abort",
    "create_rollout",
    "pause",
    "plan_targets",
    "resume",
    "selected_gateways",
]


class RolloutConflict(Exception):
    """The operation conflicts with the rollout's state, or with another rollout."""


def selected_gateways(selector: dict[str, Any], target: GatewayRelease) -> QuerySet[Gateway]:
    """Gateways the selector matches that are not being deleted and not on ``target`` already."""
    gateways = Gateway.objects.filter(deletion_requested_at__isnull=True).exclude(release=target)
    if selector.get("clusters"):
        gateways = gateways.filter(cluster__name__in=selector["clusters"])
    if selector.get("labels"):
        gateways = gateways.filter(labels_include("labels", selector["labels"]))
    return gateways


def plan_targets(rollout: Rollout, *, lock: bool) -> tuple[dict[str, Gateway], list[list[Candidate]]]:
    """The selected gateways and their waves; raises PlanError, or RolloutConflict for a gateway another active
    rollout has. With ``lock`` (inside a transaction) the gateway rows stay locked until it ends."""
    selected = selected_gateways(rollout.selector, rollout.target_release).select_related("cluster").order_by("pk")
    gateways = {str(g.pk): g for g in (selected.select_for_update(of=("self",)) if lock else selected)}
    busy = (
        RolloutTarget.objects.filter(gateway__in=list(gateways.values()), rollout__phase__in=ACTIVE_PHASES)
        .select_related("rollout")
        .order_by("rollout__name", "gateway_name")
    )
    clash: dict[str, list[str]] = {}
    for target in busy:
        clash.setdefault(target.rollout.name, []).append(target.gateway_name)
    for cluster in {g.cluster_id: g.cluster for g in gateways.values()}.values():
        unsigned = unsigned_release_problem(cluster, rollout.target_release)
        if unsigned:
            raise PlanError(unsigned, field="target_release")
    if clash:
        detail = "; ".join(f"rollout {name!r} has {', '.join(names[:5])}" for name, names in clash.items())
        raise RolloutConflict(f"Gateways are already in an active rollout: {detail}.")
    waves = plan_waves(
        [Candidate(id=pk, name=g.name, cluster=g.cluster.name) for pk, g in gateways.items()],
        cluster_waves=rollout.wave_clusters,
        percentages=rollout.wave_percentages,
    )
    return gateways, waves


def create_rollout(rollout: Rollout) -> Rollout:
    """Save a validated, unsaved rollout with its planned targets; raises PlanError or RolloutConflict."""
    with transaction.atomic():
        gateways, waves = plan_targets(rollout, lock=True)
        rollout.wave_count = len(waves)
        rollout.save()
        RolloutTarget.objects.bulk_create(
            RolloutTarget(
                rollout=rollout,
                gateway=gateways[c.id],
                gateway_name=c.name,
                cluster_name=c.cluster,
                wave=index,
                position=position,
                previous_release_id=gateways[c.id].release_id,
            )
            for index, wave in enumerate(waves)
            for position, c in enumerate(wave)
        )
        sizes = ", ".join(str(len(w)) for w in waves)
        RolloutEvent.objects.create(
            rollout=rollout,
            reason="Created",
            message=f"{len(gateways)} gateways to release {rollout.target_release.name} in waves of {sizes}",
        )
        enqueue_on_commit(TaskName.ADVANCE_ROLLOUT, rollout.pk)
    return rollout


def _transition(rollout_id: Any, allowed: tuple[str, ...], phase: str | None, reason: str, message: str) -> Rollout:
    """Move to ``phase`` (None: back to where a paused rollout was) from one of ``allowed``, with an event."""
    with transaction.atomic():
        rollout = Rollout.objects.select_for_update().get(pk=rollout_id)
        if rollout.phase not in allowed:
            needed = ", ".join(allowed)
            raise RolloutConflict(f"The rollout is {rollout.phase}; {reason.lower()} needs one of {needed}.")
        started, now = rollout.wave_started_at is not None, timezone.now()
        rollout.phase = phase or (RolloutPhase.PROGRESSING if started else RolloutPhase.PENDING)
        rollout.finished_at = now if phase == RolloutPhase.ABORTED else None
        paused = ConditionStatus.TRUE if rollout.phase == RolloutPhase.PAUSED else ConditionStatus.FALSE
        rollout.conditions = set_condition(
            rollout.conditions,
            type_=ConditionType.PAUSED,
            status=paused,
            reason=reason,
            message=message,
            generation=0,
            now=now,
        )
        rollout.save(update_fields=("phase", "finished_at", "conditions", "updated_at"))
        RolloutEvent.objects.create(rollout=rollout, reason=reason, message=message)
        enqueue_on_commit(TaskName.ADVANCE_ROLLOUT, rollout.pk)
    return rollout


def pause(rollout_id: Any, who: str) -> Rollout:
    """No new gateway starts; upgrades under way finish."""
    return _transition(
        rollout_id,
        (RolloutPhase.PENDING, RolloutPhase.PROGRESSING, RolloutPhase.AWAITING_APPROVAL),
        RolloutPhase.PAUSED,
        Reason.PAUSED,
        f"Paused by {who}",
    )


def resume(rollout_id: Any, who: str) -> Rollout:
    return _transition(rollout_id, (RolloutPhase.PAUSED,), None, Reason.RESUMED, f"Resumed by {who}")


def abort(rollout_id: Any, who: str) -> Rollout:
    """Stop for good and release the gateways (for another rollout); nothing is rolled back."""
    return _transition(rollout_id, ACTIVE_PHASES, RolloutPhase.ABORTED, Reason.ABORTED, f"Aborted by {who}")
