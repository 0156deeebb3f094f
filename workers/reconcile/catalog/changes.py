"""What a content switch changed: the diff from the content served so far to the new entry, for its event and
the history. A diff that cannot be computed never blocks the switch; the summary then says so."""

from __future__ import annotations

import logging

from catalogs.diff import as_dict, summary
from catalogs.store import ContentStore, StoreError
from catalogs.stored_diff import EntryMissing, diff_entries
from workers.reconcile.catalog.outcome import Switch

__all__ = ["CONSOLE_ITEMS", "describe_switch"]

log = logging.getLogger(__name__)
# Items kept per list for the console's "what changed in the last update" (the API diffs on demand).
CONSOLE_ITEMS = 20


def describe_switch(content: ContentStore, previous: str | None, current: str) -> Switch:
    """``previous`` is the entry served until now (None when nothing is)."""
    try:
        diff = diff_entries(content, previous, current, detail_limit=CONSOLE_ITEMS)
    except (EntryMissing, StoreError, ValueError) as exc:
        log.warning("could not diff catalog content %s against %s: %s", current, previous, exc)
        return Switch(summary="changes unknown: the previous content could not be read", changes={})
    return Switch(summary=summary(diff), changes=as_dict(diff, CONSOLE_ITEMS))
