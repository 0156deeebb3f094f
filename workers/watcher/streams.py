"""Watch one resource of one cluster, forever: list, then watch from the list's resourceVersion.

Each change names a namespace; ``on_change`` gets it. Only metadata is asked for (the list and the watch
as PartialObjectMetadata): the watcher needs no more, and Helm's records are large. A 410 Gone (the
history moved past us) or a broken stream starts over with a fresh list, and ``on_relist`` is told,
because changes may have been missed in between. Nothing here knows Django.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

from workers.drivers import errors
from workers.drivers.kube import KubeClient
from workers.drivers.request_budget import UNBOUNDED, RequestBudget

__all__ = ["WatchTarget", "watch_forever"]

log = logging.getLogger(__name__)

WATCH_TIMEOUT_SECONDS = 240
RETRY_SECONDS = (1.0, 2.0, 5.0, 10.0, 30.0)


@dataclass(frozen=True)
class WatchTarget:
    api_version: str
    plural: str
    label_selector: str


def _watch_once(kube: KubeClient, target: WatchTarget, on_change: Callable[[str], None], stop: threading.Event) -> None:
    _, version = kube.list_with_version(target.api_version, target.plural, target.label_selector, metadata_only=True)
    while not stop.is_set():
        for event in kube.watch(
            target.api_version,
            target.plural,
            version,
            label_selector=target.label_selector,
            timeout_seconds=WATCH_TIMEOUT_SECONDS,
            metadata_only=True,
        ):
            meta = event.get("object", {}).get("metadata", {})
            version = meta.get("resourceVersion") or version
            if event.get("type") != "BOOKMARK" and meta.get("namespace"):
                on_change(meta["namespace"])
            if stop.is_set():
                return


def watch_forever(
    kubeconfig: str,
    target: WatchTarget,
    on_change: Callable[[str], None],
    on_relist: Callable[[], None],
    stop: threading.Event,
    budget: RequestBudget = UNBOUNDED,
) -> None:
    """Keep one watch running until ``stop`` is set, starting over after any error. Its lists take slots of
    ``budget``; the watch stream itself does not."""
    failures = 0
    while not stop.is_set():
        try:
            with KubeClient(kubeconfig, timeout=30, budget=budget) as kube:
                if failures:
                    on_relist()
                _watch_once(kube, target, on_change, stop)
                failures = 0
        except errors.NotFound:
            log.info("watch of %s/%s: not served by this cluster; not watching it", target.api_version, target.plural)
            return
        except errors.DriverError as exc:
            failures += 1
            delay = RETRY_SECONDS[min(failures, len(RETRY_SECONDS)) - 1]
            log.info("watch of %s/%s ended (%s); again in %.0fs", target.api_version, target.plural, exc, delay)
            stop.wait(delay)
