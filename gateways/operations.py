"""Domain operations on gateways, shared by the REST API and the console so the two cannot diverge.

Each operation locks the selected rows (in name order, so concurrent callers never deadlock),
records one audit entry per gateway it acted on, and enqueues a reconcile once the transaction
commits. Callers decide who may act on which gateways; these functions only act.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from controlplane.audit import record
from controlplane.dispatch import enqueue_on_commit
from controlplane.tasks import TaskName
from gateways.choices import Phase
from gateways.models import Gateway
from gateways.pass_queue import asked_by

__all__ = ["request_deletion", "resync", "retry", "set_suspended"]


def _locked(gateways: QuerySet[Gateway]) -> list[Gateway]:
    pks = list(gateways.values_list("pk", flat=True))
    return list(
        Gateway.objects.select_for_update(of=("self",))
        .select_related("cluster", "owner")
        .filter(pk__in=pks)
        .order_by("name", "pk")
    )


def _done(gateway: Gateway, user: Any, action: str, source: str) -> None:
    record(user, action, gateway, source=source)
    enqueue_on_commit(TaskName.RECONCILE_GATEWAY, gateway.pk, queue=asked_by(user))


def retry(gateways: QuerySet[Gateway], user: Any, source: str) -> list[Gateway]:
    """Reset the failure counter and backoff (leaving Failed on the next pass), and reconcile now."""
    with transaction.atomic():
        locked = _locked(gateways)
        Gateway.objects.filter(pk__in=[g.pk for g in locked]).update(failure_count=0, next_attempt_at=None)
        for gateway in locked:
            gateway.failure_count, gateway.next_attempt_at = 0, None
            _done(gateway, user, "retry", source)
    return locked


def resync(gateways: QuerySet[Gateway], user: Any, source: str) -> list[Gateway]:
    """Reconcile now, without touching the failure counter."""
    with transaction.atomic():
        locked = _locked(gateways)
        for gateway in locked:
            _done(gateway, user, "resync", source)
    return locked


def set_suspended(
    gateways: QuerySet[Gateway], suspended: bool, user: Any, source: str
) -> tuple[list[Gateway], list[Gateway]]:
    """Suspend or resume (a spec change: the generation moves); returns (acted on, skipped as being deleted)."""
    changed, skipped = [], []
    with transaction.atomic():
        for gateway in _locked(gateways):
            if gateway.deletion_requested_at is not None:
                skipped.append(gateway)
                continue
            if gateway.suspended != suspended:
                gateway.suspended = suspended
                gateway.save(update_fields=("suspended", "updated_at"))
            _done(gateway, user, "suspend" if suspended else "resume", source)
            changed.append(gateway)
    return changed, skipped


def request_deletion(gateways: QuerySet[Gateway], user: Any, source: str, *, force: bool = False) -> list[Gateway]:
    """Mark Deleting; the worker uninstalls the release, deletes the namespace, then the row. ``force`` (a platform
    admin's, checked by the caller) has it remove what the release left even if helm uninstall fails. Failures
    are counted afresh: after GATEWAY_DELETE_MAX_FAILURES failed uninstalls the worker does the same."""
    with transaction.atomic():
        locked = _locked(gateways)
        for gateway in locked:
            changed = []
            if gateway.deletion_requested_at is None:
                gateway.deletion_requested_at = timezone.now()
                gateway.phase = Phase.DELETING
                gateway.failure_count, gateway.next_attempt_at = 0, None
                changed += ["deletion_requested_at", "phase", "failure_count", "next_attempt_at"]
            if force and not gateway.force_deletion:
                gateway.force_deletion = True
                changed.append("force_deletion")
            if changed:
                gateway.save(update_fields=(*changed, "updated_at"))
                record(user, "delete", gateway, {"force_deletion": True} if force else None, source=source)
            enqueue_on_commit(TaskName.RECONCILE_GATEWAY, gateway.pk, queue=asked_by(user))
    return locked
