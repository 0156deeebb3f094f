"""The outcomes of the catalog's steps, as the one ``Outcome`` every kind's pass saves: condition changes, status
fields and the event (pure). Whether a step changes anything is judged on the conditions it would leave."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from catalogs.states import ConditionType, Reason
from cluster_vocabulary.kubernetes import ConditionStatus
from controlplane.conditions import Condition, find_condition
from workers.reconcile.catalog.failures import Failure
from workers.reconcile.catalog.request import CatalogRequest
from workers.reconcile.events import EventNote
from workers.reconcile.outcome import ConditionChange, Outcome, Switch, apply_conditions

__all__ = ["dropped", "failed", "in_sync", "restored", "unpacked", "verified"]

TRUE, FALSE = ConditionStatus.TRUE, ConditionStatus.FALSE
NO_CONTENT: dict[str, Any] = {
    "resolved_ref": "",
    "base_url": "",
    "last_unpacked": None,
    "content_digest": "",
    "verified_keys": "",
}
RECOVERED: dict[str, Any] = {"failure_count": 0, "next_attempt_at": None, "blocked_digest": ""}


def _changes(progressing: tuple[str, str, str], serving: tuple[str, str, str]) -> list[ConditionChange]:
    return [ConditionChange(ConditionType.PROGRESSING, *progressing), ConditionChange(ConditionType.SERVING, *serving)]


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


def _serving_available(resolved_ref: str) -> tuple[str, str, str]:
    return TRUE, Reason.AVAILABLE, f"Serving content unpacked from {resolved_ref}"


def _was_lost(request: CatalogRequest) -> bool:
    """Serving says the content was lost from the store (``catalogs.lost_content``)."""
    serving = find_condition(list(request.conditions), ConditionType.SERVING)
    return serving is not None and serving["reason"] == Reason.CONTENT_LOST


def _restored_event(request: CatalogRequest, resolved_ref: str) -> EventNote:
    message = f"Serving {request.content_digest} from {resolved_ref} again: it was lost from the store"
    return EventNote.normal(Reason.CONTENT_RESTORED, message)


def _heal_waiting(request: CatalogRequest, failure: Failure) -> tuple[str, str, str]:
    """Serving stays False (``ContentLost``) while unpacking the lost entry again fails, saying on what."""
    message = f"Content {request.content_digest} is missing from the store; unpacking it again waits: {failure.message}"
    return FALSE, Reason.CONTENT_LOST, message


def _stored(
    request: CatalogRequest, resolved_ref: str, content_digest: str, base_url: str, now: datetime
) -> tuple[list[ConditionChange], dict[str, Any]]:
    fields = {
        "resolved_ref": resolved_ref,
        "base_url": base_url,
        "last_unpacked": now,
        "content_digest": content_digest,
        "verified_keys": request.keys_fingerprint,
        **RECOVERED,
    }
    progressing = (TRUE, Reason.SUCCEEDED, f"Unpacked and stored {resolved_ref}")
    return _changes(progressing, _serving_available(resolved_ref)), fields


def unpacked(
    request: CatalogRequest, resolved_ref: str, content_digest: str, base_url: str, now: datetime, switch: Switch
) -> Outcome:
    conditions, fields = _stored(request, resolved_ref, content_digest, base_url, now)
    verified = ", its signature verified" if request.signature_keys else ""
    message = f"{switch.summary}; serving {content_digest} from {resolved_ref}{verified}"
    return Outcome(
        conditions=conditions,
        fields=fields,
        content_present=True,
        events=[EventNote.normal(Reason.UNPACKED, message)],
        require_content=content_digest,
        switch=switch,
    )


def restored(request: CatalogRequest, resolved_ref: str, base_url: str, now: datetime) -> Outcome:
    """The content served, lost from the store, was unpacked again: the same digest, so no switch in the history."""
    conditions, fields = _stored(request, resolved_ref, request.content_digest, base_url, now)
    return Outcome(
        conditions=conditions,
        fields=fields,
        content_present=True,
        events=[_restored_event(request, resolved_ref)],
        require_content=request.content_digest,
    )


def in_sync(request: CatalogRequest, now: datetime) -> Outcome:
    """Serving what the ref names; after a loss (the entry written again meanwhile, e.g. for another catalog
    serving the same digest), the restore gets its event here."""
    conditions = _changes(
        (TRUE, Reason.SUCCEEDED, f"Unpacked and stored {request.resolved_ref}"),
        _serving_available(request.resolved_ref),
    )
    changed = _changed(request, _applied(request, conditions, now))
    events = [_restored_event(request, request.resolved_ref)] if _was_lost(request) else []
    return Outcome(
        conditions=conditions,
        fields=request.status_fields() | RECOVERED,
        content_present=True,
        events=events,
        changes=changed,
    )


def verified(request: CatalogRequest, now: datetime) -> Outcome:
    """The content served was found signed with the (new) signature keys: nothing else changes."""
    synced = in_sync(request, now)
    message = f"The signature of {request.resolved_ref} verified with the policy keys"
    fields = synced.fields | {"verified_keys": request.keys_fingerprint}
    return Outcome(
        conditions=synced.conditions,
        fields=fields,
        content_present=True,
        events=[EventNote.normal(Reason.VERIFIED, message)],
    )


def dropped(request: CatalogRequest, now: datetime) -> Outcome:
    conditions = _changes(
        (TRUE, Reason.SUCCEEDED, "Availability mode is Unavailable: nothing is unpacked"),
        (FALSE, Reason.USER_SPECIFIED_UNAVAILABLE, "Availability mode is Unavailable: content was dropped"),
    )
    changed = _changed(request, _applied(request, conditions, now))
    events = [EventNote.normal(Reason.DROPPED, "Content dropped: availability mode is Unavailable")] if changed else []
    return Outcome(
        conditions=conditions,
        fields=NO_CONTENT | RECOVERED,
        content_present=False,
        events=events,
        release_content=request.content_digest,
        changes=changed or bool(request.content_digest),
    )


def failed(
    request: CatalogRequest, failure: Failure, now: datetime, retry_at: datetime | None, digest: str | None = None
) -> Outcome:
    """Keep serving old content if there is any; keep the status of content lost from the store (its heal waits);
    otherwise say plainly that nothing is served.

    The failure is counted; ``retry_at`` (None when terminal) is when the next attempt is due. A terminal
    failure records ``digest`` (the one being pulled) as blocked, so polls do not pull it again (unless
    it is one that ``Failure.blocks_digest`` says a poll should check again)."""
    if failure.terminal:
        progressing = (FALSE, failure.reason or Reason.BLOCKED, failure.message)
    else:
        progressing = (TRUE, failure.reason or Reason.RETRYING, failure.message)
    if request.content_present:
        serving, fields = _serving_available(request.resolved_ref), request.status_fields()
    elif request.content_digest:  # lost from the store: keep what the catalog serves, so the heal is a restore
        serving, fields = _heal_waiting(request, failure), request.status_fields()
    else:
        serving, fields = (FALSE, Reason.UNAVAILABLE, "No content has been unpacked"), dict(NO_CONTENT)
    conditions = _changes(progressing, serving)
    fields = fields | {
        "failure_count": request.failure_count + 1,
        "next_attempt_at": retry_at,
        "blocked_digest": (digest or "") if failure.blocks_digest else "",
    }
    events: list[EventNote] = []
    if _progress_changed(request, _applied(request, conditions, now)):
        events.append(EventNote.warning(progressing[1], failure.message))
    return Outcome(conditions=conditions, fields=fields, content_present=request.content_present, events=events)
