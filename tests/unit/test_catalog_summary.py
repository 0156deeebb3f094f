"""``summarize``: the one place a catalog step's facts become Serving (the catalog's Ready)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from workers.reconcile.catalog.failures import Failure
from workers.reconcile.catalog.outcome import CatalogOutcome, CatalogStatus
from workers.reconcile.catalog.summary import summarize
from workers.reconcile.outcome import ConditionChange

REF, CONTENT = "r.test/cat@sha256:aa", "sha256:cc"
SERVED = CatalogStatus(resolved_ref=REF, base_url="http://cp/catalogs/ops", content_digest=CONTENT)
DOWN = Failure(terminal=False, message="registry down")


@dataclass(frozen=True)
class Case:
    status: CatalogStatus | None
    content_present: bool
    failure: Failure | None
    serving: tuple[str, str]
    says: str


CASES = {
    "content present": Case(SERVED, True, None, ("True", "Available"), f"Serving content unpacked from {REF}"),
    "content present through a failure": Case(
        SERVED, True, DOWN, ("True", "Available"), f"Serving content unpacked from {REF}"
    ),
    "content lost, its heal failing": Case(SERVED, False, DOWN, ("False", "ContentLost"), "registry down"),
    "nothing unpacked, failing": Case(CatalogStatus(), False, DOWN, ("False", "Unavailable"), "No content"),
    "dropped": Case(CatalogStatus(), False, None, ("False", "UserSpecifiedUnavailable"), "content was dropped"),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_summarize_derives_serving_from_the_step_facts(case: Case) -> None:
    progressing = ConditionChange("Progressing", "True", "Succeeded", "done")
    outcome = CatalogOutcome(
        conditions=[progressing], status=case.status, content_present=case.content_present, failure=case.failure
    )
    assert summarize(outcome) is outcome
    first, serving = outcome.conditions
    assert first == progressing and serving.type == "Serving"
    assert (serving.status, serving.reason) == case.serving and case.says in serving.message
    if case.serving[1] == "ContentLost":
        assert CONTENT in serving.message
