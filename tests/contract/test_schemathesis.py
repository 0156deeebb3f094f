"""schemathesis against the live schema of the running API, authenticated as a platform admin.

Every operation is fuzzed with a bounded, derandomized number of positive (schema-valid) and negative
(schema-violating) cases. Detail operations alternate between random ids and ids of real objects, which
a pool re-creates when a fuzzed DELETE removes them. Each response must pass the checks below: no 5xx, no
undocumented status code, a documented content type, a body and headers that match the schema.

The Celery worker and beat are stopped while fuzzing: fuzzed clusters and catalogs carry arbitrary server
URLs and image references, and no probe or pull may follow them off this machine. The queued tasks are
dropped and the worker and beat restarted afterwards.
"""

from __future__ import annotations

import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import redis
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import FlakyStrategyDefinition
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.fixtures import stack as stack_module
from tests.fixtures.stack import Stack

pytestmark = pytest.mark.e2e

# Cases per operation and generation mode: more where there is a body to fuzz. With 14 body operations and 28
# others that is 14 x 2 x 25 + 28 x 2 x 10 = 1,260 cases, about a minute on 2 cores (the test prints the count).
MAX_EXAMPLES_BODY = 25
MAX_EXAMPLES_OTHER = 10
# Stateful runs: scenarios, and steps in each.
STATEFUL_SCENARIOS = 30
STATEFUL_STEPS = 8
FLAKY_DRAW_RUNS = 3
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]
REAL_ID = "real"  # placeholder path id, swapped for a live object's id before the call
READ_ONLY_KINDS = frozenset({"deliveries"})
UNREACHABLE_KUBECONFIG = """\
apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: "https://127.0.0.1:9"}
contexts:
- name: c
  context: {cluster: c, user: u}
current-context: c
users:
- name: u
  user: {token: fuzz-token}
"""


@dataclass
class Pool:
    """Live objects for detail operations; a fuzzed DELETE may remove one, so each is checked before use."""

    session: requests.Session
    base_url: str
    current: dict[str, str] = field(default_factory=dict)
    created: Counter = field(default_factory=Counter)

    def body(self, kind: str) -> dict[str, Any]:
        """The required fields of a new, valid object of ``kind``."""
        self.created[kind] += 1
        n = self.created[kind]
        if kind == "subscriptions":  # to the pool's receiver
            receiver = self.session.get(f"{self.base_url}/api/v1/receivers/{self.ensure('receivers')}/", timeout=30)
            return {"name": f"fuzz-s{n}", "receiver": receiver.json()["name"]}
        return {
            "clusters": {"name": f"fuzz-c{n}", "kubeconfig": UNREACHABLE_KUBECONFIG, "base_domain": "fuzz.test"},
            "gateways": {
                "name": f"fuzz-gw{n}",
                "cluster": "fuzz-host",
                "labels": {"team": "fuzz"},
                "image": "registry.example.test/gateway:1.0.0",
                "supervisor_image": "registry.example.test/sv:1.0.0",
            },
            "catalogs": {"name": f"fuzz-cat{n}", "source": {"image": {"ref": "127.0.0.1:9/fuzz/catalog:v1"}}},
            # Loopback is allowed in the stack (NOTIFICATIONS_ALLOW_PRIVATE_ADDRESSES); nothing listens on port 9.
            "receivers": {"name": f"fuzz-r{n}", "url": "http://127.0.0.1:9/hook", "secret": "fuzz-signing-secret-0"},
        }[kind]

    def create(self, kind: str) -> str:
        response = self.session.post(f"{self.base_url}/api/v1/{kind}/", json=self.body(kind), timeout=30)
        assert response.status_code == 201, response.text
        return response.json()["id"]

    def ensure(self, kind: str) -> str:
        """The id of a live object of ``kind`` (a new one after a fuzzed DELETE removed the last)."""
        if kind not in self.current:
            self.current[kind] = self.create(kind)
        return self.current[kind]

    def forget(self, kind: str, object_id: str) -> None:
        if self.current.get(kind) == object_id:
            del self.current[kind]


@pytest.fixture
def quiet_stack(live_stack: Stack) -> Iterator[Stack]:
    """The live stack without its worker and beat; both come back, on an empty queue, afterwards."""
    beat_argv = live_stack.processes["beat"].args
    ready_before = live_stack.log("worker").count(" ready.")
    live_stack.stop("beat")
    live_stack.stop("worker")
    try:
        yield live_stack
    finally:
        redis.Redis.from_url(stack_module.E2E_BROKER_URL).flushdb()
        live_stack.start_worker()
        live_stack.start("beat", list(beat_argv))
        live_stack.await_worker(ready_before, timeout=60)


def admin_session(base_url: str) -> requests.Session:
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    user = get_user_model().objects.create_user("fuzz-admin", is_staff=True, is_superuser=True)
    session = requests.Session()
    session.headers["Authorization"] = f"Token {Token.objects.create(user=user).key}"
    return session


@dataclass
class Findings:
    cases: int = 0
    statuses: Counter = field(default_factory=Counter)
    failures: dict[tuple[str, str], str] = field(default_factory=dict)  # (operation, check) -> first repro
    skipped: list[str] = field(default_factory=list)
    link_steps: int = 0


def failure_titles(exc: BaseException) -> list[str]:
    group = getattr(exc, "exceptions", None)
    if group:
        return [title for inner in group for title in failure_titles(inner)]
    return [getattr(exc, "title", None) or type(exc).__name__]


def no_waiting(case: Any) -> None:
    """The worker is stopped: a plan never finishes, so waiting for one would only idle."""
    if isinstance((case.query or {}).get("wait"), int) and case.query["wait"] > 0:
        case.query["wait"] = 0


def fuzz_operation(
    operation: Any, mode: GenerationMode, pool: Pool, session: requests.Session, base_url: str, findings: Findings
) -> None:
    kind = operation.path.split("/")[3]  # /api/v1/<kind>/...
    detail = "{id}" in operation.path
    strategy = operation.as_strategy(generation_mode=mode)
    if detail:
        strategy = st.one_of(strategy, operation.as_strategy(generation_mode=mode, path_parameters={"id": REAL_ID}))

    @settings(
        max_examples=MAX_EXAMPLES_BODY if operation.body else MAX_EXAMPLES_OTHER,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=strategy)
    def run(case: Any) -> None:
        if detail and case.path_parameters.get("id") == REAL_ID:
            # The delivery log has no create: its "real" ids are random ones too.
            case.path_parameters["id"] = str(uuid.uuid4()) if kind in READ_ONLY_KINDS else pool.ensure(kind)
        no_waiting(case)
        findings.cases += 1
        try:
            response = case.call(base_url=base_url, session=session)
        except requests.RequestException as exc:  # a dropped connection is as bad as a 5xx
            findings.failures.setdefault((operation.label, type(exc).__name__), case.as_curl_command())
            return
        findings.statuses[response.status_code] += 1
        if detail and case.method == "DELETE" and response.status_code < 300:
            pool.forget(kind, case.path_parameters["id"])  # gone, or (a gateway) on its way out
        try:
            case.validate_response(response, checks=CHECKS)
        except (AssertionError, BaseExceptionGroup) as exc:  # schemathesis' FailureGroup is a BaseExceptionGroup
            for title in failure_titles(exc):
                findings.failures.setdefault(
                    (operation.label, title),
                    f"{case.as_curl_command(base_url=base_url)}\n  -> {response.status_code} {response.text[:500]}",
                )

    try:
        run()
    except Exception as exc:  # e.g. no schema-violating data exists for this operation
        findings.skipped.append(f"{operation.label} ({mode.value}): {type(exc).__name__}: {exc}"[:300])


def fuzzing_session(base_url: str) -> tuple[requests.Session, Pool]:
    """An admin session and an object pool, with the cluster ``fuzz-host`` that pooled gateways live on."""
    session = admin_session(base_url)
    host = session.post(
        f"{base_url}/api/v1/clusters/",
        timeout=30,
        json={
            "name": "fuzz-host",
            "kubeconfig": UNREACHABLE_KUBECONFIG,
            "base_domain": "host.fuzz.test",
        },
    )
    assert host.status_code == 201, host.text
    return session, Pool(session, base_url)


def test_schemathesis_finds_no_contract_violation(
    quiet_stack: Stack, stack_db: None, live_schema: dict[str, Any]
) -> None:
    base_url = quiet_stack.api_url
    session, pool = fuzzing_session(base_url)
    for kind in ("clusters", "gateways", "catalogs"):
        pool.ensure(kind)

    schema = schemathesis.openapi.from_dict(live_schema)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == sum(len(ops) for ops in live_schema["paths"].values())

    findings = Findings()
    started = time.monotonic()
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            fuzz_operation(operation, mode, pool, session, base_url, findings)
    elapsed = time.monotonic() - started

    summary = (
        f"schemathesis {schemathesis.SCHEMATHESIS_VERSION}: {findings.cases} cases over {len(operations)} operations "
        f"in {elapsed:.0f}s; statuses {dict(sorted(findings.statuses.items()))}; "
        f"pool objects created {dict(pool.created)}"
    )
    print(summary, file=sys.stderr)
    for line in findings.skipped:
        print(f"  not generated: {line}", file=sys.stderr)
    assert findings.cases >= len(operations) * MAX_EXAMPLES_OTHER
    report = "\n".join(f"{op} [{check}]:\n  {repro}" for (op, check), repro in sorted(findings.failures.items()))
    server_log = quiet_stack.log("api")[-4000:] if findings.failures else ""
    assert not findings.failures, f"{summary}\n{report}\n--- API log tail ---\n{server_log}"


def stateful_machine(schema: Any, session: requests.Session, base_url: str, pool: Pool, findings: Findings) -> type:
    """The schema's state machine, following its links (create -> get, update, actions, delete). A create gets
    the required fields of a real object (the other fields stay fuzzed), so the links have objects to follow."""

    from catalogs.models import Catalog
    from controlplane.models import ManagedCluster
    from gateways.models import Gateway

    models = (Gateway, Catalog, ManagedCluster)  # in an order the foreign keys allow deleting

    class Machine(schema.as_state_machine()):  # type: ignore[misc]
        """Each scenario starts from the same objects: what one created is deleted before the next begins."""

        def __init__(self) -> None:
            super().__init__()
            self.baseline = {model: set(model.objects.values_list("pk", flat=True)) for model in models}

        def teardown(self) -> None:
            super().teardown()
            for model in models:
                model.objects.exclude(pk__in=self.baseline[model]).delete()

        def step(self, input: Any) -> Any:
            findings.link_steps += input.transition is not None and input.is_applied
            return super().step(input)

        def before_call(self, case: Any) -> None:
            kind = case.path.split("/")[3]
            if case.method == "POST" and case.path == f"/api/v1/{kind}/" and isinstance(case.body, dict):
                case.body.update(pool.body(kind))
            no_waiting(case)
            findings.cases += 1

        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"base_url": base_url, "session": session}

        def after_call(self, response: Any, case: Any) -> None:
            super().after_call(response, case)
            findings.statuses[response.status_code] += 1

        def validate_response(self, response: Any, case: Any, additional_checks: Any = None, **kwargs: Any) -> None:
            try:
                case.validate_response(response, checks=CHECKS)
            except (AssertionError, BaseExceptionGroup) as exc:
                for title in failure_titles(exc):
                    findings.failures.setdefault(
                        (case.operation.label, title),
                        f"{case.as_curl_command(base_url=base_url)}\n  -> {response.status_code} {response.text[:500]}",
                    )

    return Machine


STATEFUL_PATHS = r"^/api/v1/(clusters|gateways|catalogs)/"


def test_stateful_runs_follow_links_without_a_contract_violation(
    quiet_stack: Stack, stack_db: None, live_schema: dict[str, Any]
) -> None:
    base_url = quiet_stack.api_url
    session, pool = fuzzing_session(base_url)
    links = [
        name
        for ops in live_schema["paths"].values()
        for op in ops.values()
        if isinstance(op, dict)
        for response in op.get("responses", {}).values()
        for name in response.get("links", {})
    ]
    assert "gateways_retrieve" in links and "catalogs_destroy" in links  # controlplane.api.schema.add_links
    findings = Findings()
    # The resources the pool can make real objects of; the rollout endpoints are fuzzed by the stateless run.
    schema = schemathesis.openapi.from_dict(live_schema).include(path_regex=STATEFUL_PATHS)
    machine = stateful_machine(schema, session, base_url, pool, findings)
    started = time.monotonic()
    # The steps are drawn from live answers, and hypothesis refuses a choice sequence whose draws differ from an
    # earlier case's at the same point (FlakyStrategyDefinition), which a slower answer on a loaded machine can
    # cause. That is the harness, not the API: the run starts again with new draws, at most FLAKY_DRAW_RUNS times.
    for run in range(FLAKY_DRAW_RUNS):
        try:
            machine.run(
                settings=settings(
                    max_examples=STATEFUL_SCENARIOS,
                    stateful_step_count=STATEFUL_STEPS,
                    database=None,
                    deadline=None,
                    phases=[Phase.generate],
                    suppress_health_check=list(HealthCheck),
                )
            )
            break
        except FlakyStrategyDefinition:
            if run == FLAKY_DRAW_RUNS - 1:
                raise
    summary = (
        f"schemathesis {schemathesis.SCHEMATHESIS_VERSION} stateful: {findings.cases} cases in {STATEFUL_SCENARIOS} "
        f"scenarios, {findings.link_steps} of them following a link, in {time.monotonic() - started:.0f}s; "
        f"statuses {dict(sorted(findings.statuses.items()))}; objects created {dict(pool.created)}"
    )
    print(summary, file=sys.stderr)
    assert findings.link_steps > 0, summary
    report = "\n".join(f"{op} [{check}]:\n  {repro}" for (op, check), repro in sorted(findings.failures.items()))
    assert not findings.failures, f"{summary}\n{report}\n--- API log tail ---\n{quiet_stack.log('api')[-4000:]}"
