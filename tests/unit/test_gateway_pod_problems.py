"""Why a release's pods are not ready, from Warning events (pure)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from workers.reconcile.gateway.observation.pod_problems import pod_problems

NOW = datetime(2026, 12, 2, 3, 0, tzinfo=UTC)


def event(kind: str, name: str, reason: str, message: str, ago: int, type_: str = "Warning") -> dict:
    stamp = (NOW - timedelta(seconds=ago)).strftime("%Y-%m-%dT%H:%M:%SZ")
    return {
        "type": type_,
        "reason": reason,
        "message": message,
        "lastTimestamp": stamp,
        "involvedObject": {"kind": kind, "name": name},
    }


def test_the_newest_problems_of_the_release_come_first() -> None:
    events = [
        event("StatefulSet", "gw-a-openshell", "FailedCreate", "forbidden: unable to validate against any SCC", 5),
        event("Pod", "gw-a-openshell-0", "FailedMount", 'secret "openshell-server-tls" not found', 1),
        event("Pod", "gw-b-openshell-0", "FailedMount", "another release's pod", 0),
        event("Pod", "gw-a-openshell-0", "Scheduled", "normal news", 0, type_="Normal"),
        event("Pod", "gw-a-openshell-0", "FailedMount", "too old to matter", 3600),
    ]
    assert pod_problems(events, ["gw-a-openshell"], NOW) == [
        'Pod gw-a-openshell-0: FailedMount: secret "openshell-server-tls" not found',
        "StatefulSet gw-a-openshell: FailedCreate: forbidden: unable to validate against any SCC",
    ]


def test_a_repeated_event_is_reported_once_with_its_latest_message() -> None:
    events = [event("Pod", "p-0", "Failed", "Error: old", 30), event("Pod", "p-0", "Failed", "Error: new", 2)]
    assert pod_problems(events, ["p"], NOW) == ["Pod p-0: Failed: Error: new"]


def test_no_owners_or_no_warnings_means_no_problems() -> None:
    assert pod_problems([event("Pod", "p-0", "Failed", "x", 1)], [], NOW) == []
    assert pod_problems([], ["p"], NOW) == []
