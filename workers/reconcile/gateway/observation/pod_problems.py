"""Why a release's pods are not ready, read from the cluster's Warning events (pure).

A refused pod leaves a ``FailedCreate`` event on its owner (which SCC or Pod Security rule refused it); a pod
waiting for a Secret or ConfigMap leaves ``FailedMount`` or ``Failed`` (CreateContainerConfigError) on itself.
These messages, not a generic timeout, are what a gateway's ``Ready`` condition should say.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from cluster_vocabulary.kubernetes import EventType
from workers.drivers.helm_parse import parse_time

__all__ = ["EVENT_WINDOW", "MAX_PROBLEMS", "pod_problems"]

# Controllers and kubelets repeat these events while the problem lasts (with backoff); older ones are history.
EVENT_WINDOW = timedelta(minutes=10)
MAX_PROBLEMS = 2
MAX_MESSAGE = 900
_OWNED_KINDS = frozenset({"StatefulSet", "Deployment", "ReplicaSet", "DaemonSet", "Job", "Pod"})


def _seen_at(event: dict[str, Any]) -> datetime | None:
    for key in ("lastTimestamp", "eventTime", "firstTimestamp"):
        stamp = parse_time(event.get(key))
        if stamp is not None:
            return stamp
    return parse_time((event.get("metadata") or {}).get("creationTimestamp"))


def pod_problems(
    events: Iterable[dict[str, Any]], owners: Iterable[str], now: datetime, window: timedelta = EVENT_WINDOW
) -> list[str]:
    """The latest distinct Warning events (newest first) about workloads or pods named after one of ``owners``.

    A pod or ReplicaSet is named after its owner (``<statefulset>-0``, ``<deployment>-<hash>-<id>``), so a
    name prefix ties it to the release's workload.
    """
    prefixes = tuple(owners)
    latest: dict[tuple[str, str, str], tuple[datetime, str]] = {}
    for event in events:
        involved = event.get("involvedObject") or {}
        kind, name = str(involved.get("kind", "")), str(involved.get("name", ""))
        seen = _seen_at(event)
        if (
            event.get("type") != EventType.WARNING
            or kind not in _OWNED_KINDS
            or not prefixes
            or not name.startswith(prefixes)
            or seen is None
            or now - seen > window
        ):
            continue
        key = (kind, name, str(event.get("reason", "")))
        text = f"{kind} {name}: {event.get('reason', '')}: {event.get('message', '')}".strip()
        if key not in latest or latest[key][0] < seen:
            latest[key] = (seen, text)
    newest = sorted(latest.values(), key=lambda item: item[0], reverse=True)
    return [text[:MAX_MESSAGE] for _, text in newest[:MAX_PROBLEMS]]
