"""Pure parts of the gateway reconciler: backoff, phases, state detection and health."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from workers.reconcile.gateway.observation.health import (
    backend_tls_ready,
    backend_tls_refusals,
    route_ready,
    workload_ready,
)
from workers.reconcile.gateway.observation.state import Observed, State, determine_state
from workers.reconcile.gateway.passes.phases import phase_for
from workers.reconcile.retry import RetryPolicy

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
MIN = timedelta(minutes=1)


@pytest.mark.parametrize(("failures", "minutes"), [(0, 0), (1, 1), (2, 2), (3, 4), (4, 8), (5, 15), (9, 15)])
def test_backoff_doubles_and_caps(failures: int, minutes: int) -> None:
    assert RetryPolicy().delay(failures) == timedelta(minutes=minutes)


def test_backoff_base_and_cap_are_configurable() -> None:
    policy = RetryPolicy(base=timedelta(seconds=1), cap=timedelta(seconds=4), max_failures=3)
    assert [policy.delay(n).total_seconds() for n in (1, 2, 3, 4)] == [1, 2, 4, 4]
    assert policy.next_attempt(2, NOW) == NOW + timedelta(seconds=2)
    assert not policy.exhausted(2) and policy.exhausted(3)


@pytest.mark.parametrize("failures", [40, 10_000, 2**70])
def test_backoff_never_overflows_however_many_failures(failures: int) -> None:
    """Before the exponent was capped, ``base * 2**(n-1)`` raised OverflowError past about 40 failures."""
    assert RetryPolicy().delay(failures) == timedelta(minutes=15)
    assert RetryPolicy(base=timedelta(days=1), cap=timedelta(days=365)).delay(failures) == timedelta(days=365)


@pytest.mark.parametrize(
    ("kwargs", "phase"),
    [
        ({"deleting": True}, "Deleting"),
        ({"stalled": True}, "Failed"),
        ({}, "Pending"),
        ({"deployed_at": NOW}, "Provisioning"),
        ({"released": True, "ready": True}, "Running"),
        ({"released": True, "deployed_at": NOW - MIN}, "Provisioning"),
        ({"released": True, "deployed_at": NOW - 10 * MIN}, "Degraded"),
        ({"released": True, "was_running": True, "deployed_at": NOW}, "Provisioning"),
        ({"released": True, "was_running": True, "deployed_at": NOW - 10 * MIN}, "Degraded"),
        ({"released": True, "was_running": True}, "Degraded"),
        ({"was_running": True}, "Provisioning"),
    ],
)
def test_phase_for(kwargs: dict, phase: str) -> None:
    base = {
        "deleting": False,
        "stalled": False,
        "released": False,
        "ready": False,
        "was_running": False,
        "deployed_at": None,
        "now": NOW,
        "grace": 5 * MIN,
    }
    assert phase_for(**{**base, **kwargs}) == phase


def observed(status: str | None, **overrides: object) -> Observed:
    base = {
        "release_status": status,
        "chart_version": "0.1.0",
        "last_deployed": NOW - MIN,
        "applied_values": {"a": 1},
        "workload_present": True,
    }
    return Observed(**{**base, **overrides})


@pytest.mark.parametrize(
    ("seen", "state"),
    [
        (observed(None), State.ABSENT),
        (observed("uninstalled"), State.ABSENT),
        (observed("failed"), State.FAILED),
        (observed("superseded"), State.FAILED),
        (observed("pending-install"), State.BUSY),
        (observed("pending-upgrade", last_deployed=NOW - 20 * MIN), State.LOCKED),
        (observed("pending-rollback", last_deployed=None), State.LOCKED),
        (observed("uninstalling", last_deployed=NOW - 20 * MIN), State.LOCKED),
        (observed("deployed", applied_values={"a": 2}), State.OUT_OF_SYNC),
        (observed("deployed", chart_version="0.0.9"), State.OUT_OF_SYNC),
        (observed("deployed", workload_present=False), State.DRIFTED),
        (observed("deployed", drifted=True), State.DRIFTED),
        (observed("deployed", applied_values={"a": 2}, drifted=True), State.OUT_OF_SYNC),
        (observed("deployed"), State.IN_SYNC),
    ],
)
def test_determine_state(seen: Observed, state: State) -> None:
    got = determine_state(seen, desired_values={"a": 1}, chart_version="0.1.0", now=NOW, pending_timeout=10 * MIN)
    assert got is state


def workload(
    ready: int, replicas: int = 1, generation: int = 2, observed_generation: int = 2, updated: int | None = None
) -> dict:
    """A StatefulSet's status as the API serves it: a zero count is left out (`omitempty`)."""
    counts = {"readyReplicas": ready, "updatedReplicas": replicas if updated is None else updated}
    return {
        "kind": "StatefulSet",
        "metadata": {"generation": generation},
        "spec": {"replicas": replicas},
        "status": {"observedGeneration": observed_generation, **{k: v for k, v in counts.items() if v}},
    }


@pytest.mark.parametrize(
    ("workloads", "ready"),
    [
        ([], False),
        ([workload(1)], True),
        ([workload(0)], False),
        ([workload(2, replicas=3)], False),
        ([workload(1, observed_generation=1)], False),
        ([workload(1), workload(0)], False),
        # The template just changed: the old pod is still ready, no replica is updated yet (the count is absent).
        ([workload(1, updated=0)], False),
        ([workload(2, replicas=2, updated=1)], False),
        ([workload(0, replicas=0)], True),
    ],
)
def test_workload_ready(workloads: list, ready: bool) -> None:
    assert workload_ready(workloads) is ready


def grpcroute(status: str) -> dict:
    return {"kind": "GRPCRoute", "status": {"parents": [{"conditions": [{"type": "Accepted", "status": status}]}]}}


def stale_grpcroute() -> dict:
    """Accepted at generation 1, then changed (generation 2) and not yet seen again by its controller."""
    condition = {"type": "Accepted", "status": "True", "observedGeneration": 1}
    return {"kind": "GRPCRoute", "metadata": {"generation": 2}, "status": {"parents": [{"conditions": [condition]}]}}


def seen_grpcroute() -> dict:
    route = stale_grpcroute()
    route["status"]["parents"][0]["conditions"][0]["observedGeneration"] = 2
    return route


def route(status: str) -> dict:
    return {"kind": "Route", "status": {"ingress": [{"conditions": [{"type": "Admitted", "status": status}]}]}}


@pytest.mark.parametrize(
    ("routes", "ready"),
    [
        ([], False),
        ([grpcroute("True")], True),
        ([grpcroute("False")], False),
        ([route("True")], True),
        ([route("Unknown")], False),
        ([{"kind": "GRPCRoute"}], False),
        ([stale_grpcroute()], False),
        ([seen_grpcroute()], True),
    ],
)
def test_route_ready(routes: list, ready: bool) -> None:
    assert route_ready(routes) is ready


def tls_policy(accepted: str, resolved: str, *, seen: int = 1, generation: int = 1) -> dict:
    conditions = [
        {"type": "Accepted", "status": accepted, "observedGeneration": seen},
        {"type": "ResolvedRefs", "status": resolved, "observedGeneration": seen},
    ]
    return {"metadata": {"generation": generation}, "status": {"ancestors": [{"conditions": conditions}]}}


@pytest.mark.parametrize(
    ("policy", "ready"),
    [
        (None, False),
        ({"status": {}}, False),
        (tls_policy("True", "True"), True),
        (tls_policy("True", "False"), False),
        (tls_policy("False", "True"), False),
        (tls_policy("True", "True", seen=1, generation=2), False),
        (tls_policy("True", "True", seen=2, generation=2), True),
    ],
)
def test_backend_tls_ready_wants_an_accepted_policy_seen_at_its_generation(policy: dict | None, ready: bool) -> None:
    assert backend_tls_ready(policy) is ready


def refused(reason: str, message: str) -> dict:
    condition = {"type": "Accepted", "status": "False", "reason": reason, "message": message}
    return {"conditions": [condition, {"type": "ResolvedRefs", "status": "True", "reason": "ResolvedRefs"}]}


@pytest.mark.parametrize(
    ("policy", "refusals"),
    [
        (None, []),
        (tls_policy("True", "True"), []),
        (tls_policy("Unknown", "True"), []),
        (
            {"status": {"ancestors": [refused("Conflicted", "another policy targets it")] * 2}},
            ["Conflicted: another policy targets it"],
        ),
        (
            {"status": {"ancestors": [refused("Conflicted", "a"), refused("NoValidCACertificate", "b")]}},
            ["Conflicted: a", "NoValidCACertificate: b"],
        ),
    ],
    ids=["absent", "accepted", "undecided", "one-refusal-from-two-gateways", "two-refusals"],
)
def test_backend_tls_refusals_are_the_controllers_words_once_each(policy: dict | None, refusals: list[str]) -> None:
    assert backend_tls_refusals(policy) == refusals
