"""The outcomes of the catalog's steps, as ``CatalogOutcome``: the Progressing change, the status columns and the
event (pure); Serving is derived by ``summarize``. Whether a step changes anything is judged on the conditions it
would leave."""

from __future__ import annotations

import dataclasses
from datetime import datetime

from catalogs.states import ConditionType, Reason
from cluster_vocabulary.kubernetes import ConditionStatus
from controlplane.conditions import Condition, find_condition
from workers.reconcile.catalog.failures import Failure
from workers.reconcile.catalog.outcome import CatalogOutcome, CatalogStatus, Switch
from workers.reconcile.catalog.request import CatalogRequest
from workers.reconcile.catalog.summary import summarize
from workers.reconcile.events import EventNote
from workers.reconcile.outcome import ConditionChange, apply_conditions

__all__ = ["dropped", "failed", "in_sync", "restored", "unpacked", "verified"]

TRUE, FALSE = ConditionStatus.TRUE, ConditionStatus.FALSE


def _step(
    progressing: tuple[str, str, str],
    status: CatalogStatus,
    *,
    content_present: bool,
    failure: Failure | None = None,
    events: list[EventNote] | None = None,
    require_content: str = "",
    switch: Switch | None = None,
) -> CatalogOutcome:
    """A step's outcome: its Progressing change, then the Serving that ``summarize`` derives from its facts."""
    outcome = CatalogOutcome(
        conditions=[ConditionChange(ConditionType.PROGRESSING, *progressing)],
        events=events or [],
        status=status,
        content_present=content_present,
        failure=failure,
        require_content=require_content,
        switch=switch,
    )
    return summarize(outcome)


def _applied(request: CatalogRequest, changes: list[ConditionChange], now: datetime) -> list[Condition]:
    """The catalog's conditions once ``changes`` are saved."""
    return apply_conditions(request.conditions, changes, generation=request.generation, now=now)


def _changed(request: CatalogRequest, conditions: list[Condition]) -> bool:
    stale = conditions != list(request.conditions) or request.observed_generation != request.generation
    return stale or request.failure_count != 0 or bool(request.blocked_digest)


def _progress_changed(request: CatalogRequest, conditions: list[Condition]) -> bool:
    before = find_condition(list(request.conditions), ConditionType.PROGRESSING)
    after = find_condition(conditions, ConditionType.PROGRESSING)
    if before is None or after is None:
        return True
    return (before["reason"], before["message"]) != (after["reason"], after["message"])


def _was_lost(request: CatalogRequest) -> bool:
    """Serving says the content was lost from the store (``catalogs.lost_content``)."""
    serving = find_condition(list(request.conditions), ConditionType.SERVING)
    return serving is not None and serving["reason"] == Reason.CONTENT_LOST


def _restored_event(request: CatalogRequest, resolved_ref: str) -> EventNote:
    message = f"Serving {request.content_digest} from {resolved_ref} again: it was lost from the store"
    return EventNote.normal(Reason.CONTENT_RESTORED, message)


def _stored(
    request: CatalogRequest, resolved_ref: str, content_digest: str, base_url: str, now: datetime
) -> CatalogStatus:
    return CatalogStatus(
        resolved_ref=resolved_ref,
        base_url=base_url,
        last_unpacked=now,
        content_digest=content_digest,
        verified_keys=request.keys_fingerprint,
    )


def _unpacked_progress(resolved_ref: str) -> tuple[str, str, str]:
    return TRUE, Reason.SUCCEEDED, f"Unpacked and stored {resolved_ref}"


def unpacked(
    request: CatalogRequest, resolved_ref: str, content_digest: str, base_url: str, now: datetime, switch: Switch
) -> CatalogOutcome:
    verified = ", its signature verified" if request.signature_keys else ""
    message = f"{switch.summary}; serving {content_digest} from {resolved_ref}{verified}"
    return _step(
        _unpacked_progress(resolved_ref),
        _stored(request, resolved_ref, content_digest, base_url, now),
        content_present=True,
        events=[EventNote.normal(Reason.UNPACKED, message)],
        require_content=content_digest,
        switch=switch,
    )


def restored(request: CatalogRequest, resolved_ref: str, base_url: str, now: datetime) -> CatalogOutcome:
    """The content served, lost from the store, was unpacked again: the same digest, so no switch in the history."""
    return _step(
        _unpacked_progress(resolved_ref),
        _stored(request, resolved_ref, request.content_digest, base_url, now),
        content_present=True,
        events=[_restored_event(request, resolved_ref)],
        require_content=request.content_digest,
    )


def in_sync(request: CatalogRequest, now: datetime) -> CatalogOutcome:
    """Serving what the ref names; after a loss (the entry written again meanwhile, e.g. for another catalog
    serving the same digest), the restore gets its event here."""
    outcome = _step(_unpacked_progress(request.resolved_ref), request.served_status(), content_present=True)
    outcome.changes = _changed(request, _applied(request, outcome.conditions, now))
    if _was_lost(request):
        outcome.events.append(_restored_event(request, request.resolved_ref))
    return outcome


def verified(request: CatalogRequest, now: datetime) -> CatalogOutcome:
    """The content served was found signed with the (new) signature keys: nothing else changes."""
    message = f"The signature of {request.resolved_ref} verified with the policy keys"
    return _step(
        _unpacked_progress(request.resolved_ref),
        dataclasses.replace(request.served_status(), verified_keys=request.keys_fingerprint),
        content_present=True,
        events=[EventNote.normal(Reason.VERIFIED, message)],
    )


def dropped(request: CatalogRequest, now: datetime) -> CatalogOutcome:
    outcome = _step(
        (TRUE, Reason.SUCCEEDED, "Availability mode is Unavailable: nothing is unpacked"),
        CatalogStatus(),
        content_present=False,
    )
    changed = _changed(request, _applied(request, outcome.conditions, now))
    if changed:
        outcome.event(Reason.DROPPED, "Content dropped: availability mode is Unavailable")
    outcome.release_content = request.content_digest
    outcome.changes = changed or bool(request.content_digest)
    return outcome


def failed(
    request: CatalogRequest, failure: Failure, now: datetime, retry_at: datetime | None, digest: str | None = None
) -> CatalogOutcome:
    """Keep serving old content if there is any; keep the status of content lost from the store (its heal waits);
    otherwise say plainly that nothing is served.

    The failure is counted; ``retry_at`` (None when terminal) is when the next attempt is due. A terminal
    failure records ``digest`` (the one being pulled) as blocked, so polls do not pull it again (unless
    it is one that ``Failure.blocks_digest`` says a poll should check again)."""
    if failure.terminal:
        progressing = (FALSE, failure.reason or Reason.BLOCKED, failure.message)
    else:
        progressing = (TRUE, failure.reason or Reason.RETRYING, failure.message)
    # Content lost from the store keeps what the catalog serves, so the heal is a restore.
    kept = request.served_status() if request.content_present or request.content_digest else CatalogStatus()
    status = dataclasses.replace(
        kept,
        failure_count=request.failure_count + 1,
        next_attempt_at=retry_at,
        blocked_digest=(digest or "") if failure.blocks_digest else "",
    )
    outcome = _step(progressing, status, content_present=request.content_present, failure=failure)
    if _progress_changed(request, _applied(request, outcome.conditions, now)):
        outcome.event(progressing[1], failure.message, warning=True)
    return outcome
