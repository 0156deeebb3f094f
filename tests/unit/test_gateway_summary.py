"""``summarize``: the one place a gateway pass's facts become Ready (and, for a deployed release, the phase)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest

from tests.unit.test_gateway_loop import NOW, RELEASE, request
from workers.drivers.helm_parse import HelmReleaseStatus
from workers.reconcile.gateway.outcome import Deployed, FailedAttempt, GatewayOutcome
from workers.reconcile.gateway.passes.summary import summarize
from workers.reconcile.outcome import ConditionChange

STALLED_CHART = ConditionChange("Stalled", "True", "ChartUnavailable", "cannot pull: 503")
STALLED_VALUES = ConditionChange("Stalled", "True", "InvalidValues", "bad image")
NOT_STALLED = ConditionChange("Stalled", "False", "Progressing", "")
MISSING = ConditionChange("PrerequisitesMissing", "True", "ApisNotServed", "The cluster does not serve X")
SERVED = ConditionChange("PrerequisitesMissing", "False", "AllServed", "served")
WAITING = ConditionChange("Reconciling", "False", "PrerequisitesMissing", "Waiting for the cluster probe")


def deployed_release(ago: timedelta) -> HelmReleaseStatus:
    return HelmReleaseStatus(
        name=RELEASE,
        namespace="ns",
        revision=3,
        status="deployed",
        chart_name="c",
        chart_version="1.0",
        app_version=None,
        last_deployed=NOW - ago,
    )


@dataclass(frozen=True)
class Case:
    outcome: dict[str, Any]
    ready: tuple[str, str, str] | None  # status, reason, message
    request: dict[str, Any] = field(default_factory=dict)
    phase: str | None = None
    reconciling: tuple[str, str] | None = None
    requeue_after: float | None = None


CASES = {
    "a failed attempt comes first": Case(
        {"failure": FailedAttempt("InstallFailed", "boom"), "conditions": [STALLED_CHART, MISSING]},
        ("False", "InstallFailed", "boom"),
    ),
    "a stall on a new gateway": Case(
        {"conditions": [STALLED_CHART]}, ("False", "ChartUnavailable", "cannot pull: 503")
    ),
    "a stall keeping the phase of a running gateway leaves Ready": Case(
        {"conditions": [STALLED_CHART]}, None, request={"was_running": True}
    ),
    "a stall that fails a running gateway": Case(
        {"conditions": [STALLED_VALUES], "phase": "Failed"},
        ("False", "InvalidValues", "bad image"),
        request={"was_running": True},
        phase="Failed",
    ),
    "the latest Stalled change counts": Case({"conditions": [STALLED_CHART, NOT_STALLED]}, None),
    "missing APIs": Case(
        {"conditions": [NOT_STALLED, MISSING]}, ("False", "PrerequisitesMissing", "The cluster does not serve X")
    ),
    "Ready goes before Reconciling, as the pass has always written it": Case(
        {"conditions": [MISSING, WAITING]},
        ("False", "PrerequisitesMissing", "The cluster does not serve X"),
        reconciling=("False", "PrerequisitesMissing"),
    ),
    "served APIs and nothing deployed: no verdict": Case({"conditions": [SERVED]}, None),
    "a deployed release that waits for nothing": Case(
        {"deployed": Deployed(None, 5.0), "release": deployed_release(timedelta(minutes=1)), "requeue_after": 3.0},
        ("True", "Succeeded", "The workload is ready"),
        phase="Running",
        reconciling=("False", "Succeeded"),
    ),
    "a ready release with a route names it": Case(
        {"deployed": Deployed(None, 5.0), "release": deployed_release(timedelta(minutes=1))},
        ("True", "Succeeded", "The workload is ready and the route is accepted"),
        request={"route_host": "edge.example.test"},
        phase="Running",
        reconciling=("False", "Succeeded"),
    ),
    "a release rolling out within its grace polls": Case(
        {"deployed": Deployed("the workload is not ready", 7.0), "release": deployed_release(timedelta(minutes=1))},
        ("False", "Progressing", "the workload is not ready"),
        request={"was_running": True},
        phase="Provisioning",
        reconciling=("True", "Progressing"),
        requeue_after=7.0,
    ),
    "an unready release past its grace is Degraded and waits to be woken": Case(
        {
            "deployed": Deployed("the route is not accepted yet", 7.0),
            "release": deployed_release(timedelta(hours=1)),
            "requeue_after": 3.0,
        },
        ("False", "Degraded", "the route is not accepted yet"),
        request={"was_running": True},
        phase="Degraded",
        reconciling=("True", "Progressing"),
    ),
    "deleting: never Ready, even after a failure": Case(
        {"failure": FailedAttempt("UninstallFailed", "boom"), "phase": "Deleting"},
        None,
        request={"deleting": True},
        phase="Deleting",
    ),
}


def latest(outcome: GatewayOutcome, type_: str) -> tuple[str, ...] | None:
    changes = [c for c in outcome.conditions if c.type == type_]
    return (changes[-1].status, changes[-1].reason, changes[-1].message) if changes else None


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_summarize_derives_ready_from_the_pass_facts(case: Case) -> None:
    outcome = GatewayOutcome(**{**case.outcome, "conditions": list(case.outcome.get("conditions", []))})
    given = len(outcome.conditions)
    summarized = summarize(request(**case.request), outcome)
    assert summarized is outcome
    assert latest(outcome, "Ready") == case.ready
    assert [c.type for c in outcome.conditions].count("Ready") == (case.ready is not None)
    assert outcome.phase == case.phase
    reconciling = latest(outcome, "Reconciling")
    assert (reconciling[:2] if reconciling else None) == case.reconciling
    types = [c.type for c in outcome.conditions]
    if "Ready" in types and "Reconciling" in types:
        assert types.index("Ready") < types.index("Reconciling")
    if case.outcome.get("deployed") is not None:
        assert outcome.requeue_after == case.requeue_after
    else:  # only Ready is added
        assert [c for c in outcome.conditions if c.type != "Ready"] == case.outcome.get("conditions", [])
        assert len(outcome.conditions) == given + (case.ready is not None)
