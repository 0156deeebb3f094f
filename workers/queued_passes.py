"""The watcher queues at most one pass per gateway: a cache marker says one waits in the queue, unstarted.

A pass that has not started yet will observe whatever changed since it was queued, so a second one adds nothing
(as a controller's work queue holds an item once). The pass clears the marker as it starts; the marker lapses
after ``QUEUED_MARK_SECONDS`` should the pass be lost, and the periodic resync covers the gap meanwhile. Without
the cache the watcher simply queues every time.
"""

from __future__ import annotations

import logging

from django.core.cache import cache

__all__ = ["QUEUED_MARK_SECONDS", "mark_queued", "started"]

log = logging.getLogger(__name__)

QUEUED_MARK_SECONDS = 60


def _key(gateway_id: object) -> str:
    return f"gateway-pass-queued:{gateway_id}"


def mark_queued(gateway_id: object) -> bool:
    """Mark a pass queued; False when one already waits (then queue none)."""
    try:
        return bool(cache.add(_key(gateway_id), 1, timeout=QUEUED_MARK_SECONDS))
    except Exception as exc:  # the cache is down: queue the pass anyway
        log.warning("cache unavailable, queueing the pass: %s", exc)
        return True


def started(gateway_id: object) -> None:
    """A pass of the gateway starts: changes from now on need another one."""
    try:
        cache.delete(_key(gateway_id))
    except Exception as exc:
        log.warning("cache unavailable: %s", exc)
