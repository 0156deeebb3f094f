"""One reconcile pass: observe, choose an action, run it, repeat; never the same action twice.

No Django here: the pass reads a ``GatewayRequest``, talks to the cluster through ``PassIo``, and
returns a ``GatewayOutcome`` that the caller saves once. Each public entry ends in ``summarize``, the one place
that sets Ready.
"""

from __future__ import annotations

import logging
from datetime import datetime

from cluster_vocabulary.kubernetes import ConditionStatus, NamespacePhase
from controlplane.image_policy import images_from_values
from gateways.states import ConditionType, Phase, Reason, Step
from gateways.values import route_address
from workers.drivers import errors
from workers.reconcile.gateway.actions import GatewayAction, Interrupted, install, purge, uninstall, unlock, upgrade
from workers.reconcile.gateway.backend_tls.reconcile import reconcile_backend_tls, remove_backend_tls
from workers.reconcile.gateway.observation.assess import assess, detect_drift
from workers.reconcile.gateway.observation.drift import Drift, drift_message
from workers.reconcile.gateway.observation.health import (
    backend_tls_ready,
    backend_tls_refusals,
    route_ready,
    workload_ready,
)
from workers.reconcile.gateway.observation.pod_problems import pod_problems
from workers.reconcile.gateway.observation.state import State
from workers.reconcile.gateway.observation.view import GatewayView, observe_gateway
from workers.reconcile.gateway.outcome import Deployed, FailedAttempt, GatewayOutcome
from workers.reconcile.gateway.pass_io import PassIo
from workers.reconcile.gateway.passes.phases import phase_for
from workers.reconcile.gateway.passes.summary import summarize
from workers.reconcile.gateway.passes.window_gate import hold, report_not_held
from workers.reconcile.gateway.prerequisites import ensure_prerequisites, remove_prerequisites
from workers.reconcile.gateway.request import GatewayRequest

__all__ = ["fail", "reconcile", "report_deployed", "settled", "unreachable"]

log = logging.getLogger(__name__)

ACTIONS: dict[State, tuple[Step, GatewayAction]] = {
    State.ABSENT: (Step.INSTALL, install.run),
    State.FAILED: (Step.UPGRADE, upgrade.run),
    State.OUT_OF_SYNC: (Step.UPGRADE, upgrade.run),
    State.DRIFTED: (Step.UPGRADE, upgrade.run),
    State.LOCKED: (Step.UNLOCK, unlock.run),
}
BUSY_REQUEUE_SECONDS = 5.0
DELETE_POLL_SECONDS = 1.0
CHART_RETRY_MIN_SECONDS = 1.0
REACHABLE = (ConditionType.CLUSTER_REACHABLE, ConditionStatus.TRUE, Reason.REACHABLE, "The cluster answers")
APIS_SERVED = (
    ConditionType.PREREQUISITES_MISSING,
    ConditionStatus.FALSE,
    Reason.ALL_SERVED,
    "The cluster serves every API the values need",
)


def settled(request: GatewayRequest) -> GatewayOutcome | None:
    """The outcome of a pass that needs nothing from the cluster (suspended, invalid, chart unavailable, or out of
    retries)."""
    early = _settled(request)
    return None if early is None else summarize(request, early)


def _settled(request: GatewayRequest) -> GatewayOutcome | None:
    outcome = GatewayOutcome()
    if request.suspended:
        outcome.condition(
            ConditionType.RECONCILING, ConditionStatus.FALSE, Reason.SUSPENDED, "Reconciliation is suspended"
        )
        return outcome
    if request.values_error:
        outcome.condition(ConditionType.STALLED, ConditionStatus.TRUE, Reason.INVALID_VALUES, request.values_error)
        outcome.phase = Phase.FAILED
        return outcome
    if request.chart_unavailable:
        return _chart_unavailable(request, outcome)
    if request.release_unverified:
        return _release_unverified(request, outcome)
    if request.timing.retry.exhausted(request.failure_count):
        outcome.phase = Phase.FAILED
        return outcome
    if request.missing_apis:
        # Before any helm call: the chart would fail to render, or render objects nobody serves.
        message = f"The cluster does not serve {', '.join(request.missing_apis)}, which the values need"
        outcome.condition(ConditionType.PREREQUISITES_MISSING, ConditionStatus.TRUE, Reason.APIS_NOT_SERVED, message)
        outcome.condition(
            ConditionType.RECONCILING,
            ConditionStatus.FALSE,
            Reason.PREREQUISITES_MISSING,
            "Waiting for the cluster probe to see them",
        )
        outcome.phase = Phase.DEGRADED if request.was_running else Phase.PENDING
        return outcome
    return None


def _chart_unavailable(request: GatewayRequest, outcome: GatewayOutcome) -> GatewayOutcome:
    """The release's chart cannot be pulled: stall without a helm call or a counted failure, keep the phase, and
    come back when the worker pulls it again (not Invalid: a registry outage passes)."""
    message = request.chart_unavailable or ""
    outcome.condition(ConditionType.STALLED, ConditionStatus.TRUE, Reason.CHART_UNAVAILABLE, message)
    outcome.condition(
        ConditionType.RECONCILING,
        ConditionStatus.TRUE,
        Reason.RETRYING,
        "Waiting to pull the chart again (with backoff)",
    )
    retry_at = request.chart_retry_at or request.now + request.timing.retry.base
    outcome.requeue_after = max((retry_at - request.now).total_seconds(), CHART_RETRY_MIN_SECONDS)
    return outcome


def _release_unverified(request: GatewayRequest, outcome: GatewayOutcome) -> GatewayOutcome:
    """The release's keys changed and it does not verify with them (yet): no install or upgrade from it, no counted
    failure, the phase kept (running pods keep running); checked again later."""
    message = request.release_unverified or ""
    outcome.condition(ConditionType.STALLED, ConditionStatus.TRUE, Reason.RELEASE_UNVERIFIED, message)
    retry_at = request.chart_retry_at or request.now + request.timing.retry.base
    outcome.requeue_after = max((retry_at - request.now).total_seconds(), CHART_RETRY_MIN_SECONDS)
    return outcome


def reconcile(request: GatewayRequest, io: PassIo) -> GatewayOutcome:
    return summarize(request, _pass(request, io))


def _pass(request: GatewayRequest, io: PassIo) -> GatewayOutcome:
    outcome = GatewayOutcome()
    if request.deleting:
        return _delete(request, io, outcome)
    early = _settled(request)
    if early is not None:
        return early
    action_name = Step.PREPARE
    report_not_held(request, outcome)
    try:
        ensure_prerequisites(request, io)
        outcome.condition(*REACHABLE)
        outcome.condition(*APIS_SERVED)
        done: set[Step] = set()
        while True:
            action_name = Step.OBSERVE
            view = observe_gateway(io.kube, request)
            state = assess(request, view, io.chart.chart_version)
            if state is State.IN_SYNC:
                action_name = Step.SECURE_BACKEND
                return _report_deployed(request, view, outcome, reconcile_backend_tls(request, io, view))
            if state is State.BUSY:
                outcome.requeue_after = BUSY_REQUEUE_SECONDS
                outcome.phase = Phase.PROVISIONING
                return outcome
            if hold(request, state, outcome):
                return outcome
            action_name, action = ACTIONS[state]
            if action_name in done:
                raise errors.HelmError(f"{action_name.lower()} did not converge: the release is still {state.value}")
            done.add(action_name)
            if state is State.DRIFTED:
                _report_drift(request, detect_drift(request, view), outcome)
            outcome.merge(action(request, io, view))
    except errors.DriverError as exc:
        if errors.is_outage(exc):
            return unreachable(request, str(exc), outcome)
        return _failed(request, action_name, _with_pod_problems(request, io, str(exc)), outcome)


def _with_pod_problems(request: GatewayRequest, io: PassIo, message: str) -> str:
    """A failed action's message, followed by the namespace's latest pod problems (a refused hook pod, say)."""
    try:
        events = io.kube.list_objects("v1", "events", request.namespace, field_selector="type=Warning")
    except errors.DriverError:
        return message
    problems = pod_problems(events, ("",), request.now)
    return "; ".join([message, *problems])


def unreachable(request: GatewayRequest, message: str, outcome: GatewayOutcome | None = None) -> GatewayOutcome:
    """The cluster does not answer: say so, keep the phase (and Ready), count no failure, and wait for it to come back.

    ``cluster_outage`` asks the caller to open the cluster's circuit breaker; the probe closes it and
    resumes every gateway there. Deletion waits as well: an unreachable cluster is never "absent".
    """
    outcome = outcome or GatewayOutcome()
    outcome.condition(ConditionType.CLUSTER_REACHABLE, ConditionStatus.FALSE, Reason.UNREACHABLE, message)
    outcome.cluster_outage = message
    outcome.requeue_after = None
    if request.deleting:
        outcome.phase = Phase.DELETING
        outcome.condition(
            ConditionType.RECONCILING,
            ConditionStatus.TRUE,
            Reason.DELETE_WAITING,
            f"Waiting for the cluster to answer: {message}",
        )
    return outcome


def _report_drift(request: GatewayRequest, drifts: list[Drift] | None, outcome: GatewayOutcome) -> None:
    """Drifted: True naming what differs (an event when newly found), False when clean; nothing when not compared."""
    if drifts is None:
        if request.drift_reported is not None:
            outcome.condition(
                ConditionType.DRIFTED,
                ConditionStatus.UNKNOWN,
                Reason.DETECTION_DISABLED,
                "GATEWAY_DRIFT_DETECTION is disabled",
            )
        return
    if not drifts:
        outcome.condition(
            ConditionType.DRIFTED,
            ConditionStatus.FALSE,
            Reason.NO_DRIFT,
            "The cluster holds the release's objects as rendered",
        )
        return
    message = drift_message(drifts)
    outcome.condition(ConditionType.DRIFTED, ConditionStatus.TRUE, Reason.DRIFT_DETECTED, message)
    if message != request.drift_reported:
        outcome.event(Reason.DRIFT_DETECTED, message, warning=True)


def _waiting_for(request: GatewayRequest, view: GatewayView, backend_tls_problem: str | None) -> str | None:
    """What a deployed, current release still waits for before it is Ready (None: nothing), and why."""
    if not workload_ready(view.workloads):
        owners = [obj["metadata"]["name"] for obj in view.workloads]
        return "; ".join(["the workload is not ready", *pod_problems(view.warnings, owners, request.now)])
    if request.route_host is not None and not route_ready(view.routes):
        return "the route is not accepted yet"
    if request.backend_tls_secret is None:
        return None
    if backend_tls_problem is not None:
        return f"TLS to the gateway pod is not set up: {backend_tls_problem}"
    policy = view.backend_tls_policy(request.release)
    if backend_tls_ready(policy):
        return None
    refusals = backend_tls_refusals(policy)  # in the Gateway API controller's words
    return (
        f"the BackendTLSPolicy is not accepted: {'; '.join(refusals)}"
        if refusals
        else ("the BackendTLSPolicy is not accepted yet")
    )


def _provisioning_poll(request: GatewayRequest, view: GatewayView, deployed_at: datetime | None) -> float:
    """Seconds until a Provisioning gateway's next timed pass. Every poll interval, unless it waits for its workloads
    and a live cluster watcher watches them (it wakes a pass when they change): then only when the ready grace
    ends, so the gateway turns Degraded on time."""
    poll = request.timing.poll_interval.total_seconds()
    if not request.watched or workload_ready(view.workloads) or deployed_at is None:
        return poll
    return max((deployed_at + request.timing.ready_grace - request.now).total_seconds(), poll)


def report_deployed(request: GatewayRequest, view: GatewayView) -> GatewayOutcome:
    """The status of a deployed, current release: Running once healthy, else Provisioning or Degraded."""
    return summarize(request, _report_deployed(request, view))


def _report_deployed(
    request: GatewayRequest,
    view: GatewayView,
    outcome: GatewayOutcome | None = None,
    backend_tls_problem: str | None = None,
) -> GatewayOutcome:
    """The facts of a deployed, current release (``summarize`` turns them into Ready and the phase).

    ``backend_tls_problem`` is why the pass could not set up TLS from the route's proxy to the pod."""
    outcome = outcome or GatewayOutcome()
    assert view.release is not None
    release = view.release.status
    outcome.release = release
    outcome.deployed_images = images_from_values(view.release.values)
    outcome.condition(*REACHABLE)
    outcome.condition(*APIS_SERVED)
    _report_drift(request, detect_drift(request, view), outcome)
    waiting = _waiting_for(request, view, backend_tls_problem)
    outcome.deployed = Deployed(waiting, _provisioning_poll(request, view, release.last_deployed))
    outcome.route_address = route_address(request.route_host) if waiting is None and request.route_host else ""
    outcome.condition(
        ConditionType.RELEASED, ConditionStatus.TRUE, Reason.DEPLOYED, f"Revision {release.revision} is deployed"
    )
    outcome.condition(ConditionType.STALLED, ConditionStatus.FALSE, Reason.PROGRESSING, "")
    if request.prerequisites.trusted_ca:
        unmounted = request.trusted_ca_unmounted
        if unmounted:
            outcome.condition(ConditionType.TRUSTED_CA, ConditionStatus.FALSE, Reason.NOT_MOUNTABLE, unmounted)
        else:
            outcome.condition(
                ConditionType.TRUSTED_CA,
                ConditionStatus.TRUE,
                Reason.MOUNTED,
                "The trusted CA is bundled into server.oidc.caConfigMapName",
            )
    outcome.failure_count, outcome.next_attempt_at = 0, None
    return outcome


def fail(request: GatewayRequest, action: str, message: str) -> GatewayOutcome:
    """Record a failed attempt: count it, back off, and stall after the last allowed one."""
    return summarize(request, _failed(request, action, message, GatewayOutcome()))


def _failed(request: GatewayRequest, action: str, message: str, outcome: GatewayOutcome) -> GatewayOutcome:
    if request.deleting:
        return _delete_failed(request, outcome, message)
    policy = request.timing.retry
    failures = request.failure_count + 1
    reason = f"{action}Failed"
    outcome.failure_count, outcome.failed = failures, True
    outcome.failure = FailedAttempt(reason, message)
    outcome.event(reason, message, warning=True)
    if action in (Step.INSTALL, Step.UPGRADE):
        outcome.condition(ConditionType.RELEASED, ConditionStatus.FALSE, reason, message)
    if policy.exhausted(failures):
        outcome.condition(
            ConditionType.STALLED,
            ConditionStatus.TRUE,
            Reason.RETRIES_EXCEEDED,
            f"{failures} consecutive failures; last: {message}",
        )
        outcome.condition(
            ConditionType.RECONCILING,
            ConditionStatus.FALSE,
            Reason.RETRIES_EXCEEDED,
            "Waiting for a spec change or a retry",
        )
        outcome.phase, outcome.next_attempt_at = Phase.FAILED, None
        return outcome
    delay = policy.delay(failures)
    outcome.next_attempt_at = request.now + delay
    outcome.requeue_after = delay.total_seconds()
    outcome.condition(
        ConditionType.RECONCILING,
        ConditionStatus.TRUE,
        Reason.RETRYING,
        f"Attempt {failures + 1} in {int(delay.total_seconds())}s",
    )
    outcome.phase = phase_for(
        deleting=False,
        stalled=False,
        released=False,
        ready=False,
        was_running=request.was_running,
        deployed_at=None,
        now=request.now,
        grace=request.timing.ready_grace,
    )
    return outcome


def _delete(request: GatewayRequest, io: PassIo, outcome: GatewayOutcome) -> GatewayOutcome:
    """Uninstall, remove what we created, delete the namespace, and only then drop the row. Fails closed. After
    the bounded failed uninstalls, or when a platform admin forces it, removes what the release left without Helm."""
    outcome.phase = Phase.DELETING
    if hold(request, None, outcome):
        return outcome
    report_not_held(request, outcome)
    try:
        if request.force_deletion or request.failure_count >= request.timing.delete_max_failures:
            _purge(request, io, outcome)
            if outcome.events:  # the row goes in a later pass, so that each step's event is recorded and notified
                outcome.requeue_after = DELETE_POLL_SECONDS
                return outcome
        else:
            outcome.merge(uninstall.run(request, io, None))
            if io.kube.namespace_exists(request.namespace):
                remove_backend_tls(request, io)
                remove_prerequisites(request, io)
                io.kube.delete_namespace(request.namespace)
        if io.kube.namespace_exists(request.namespace):
            outcome.requeue_after = DELETE_POLL_SECONDS
            outcome.condition(
                ConditionType.RECONCILING,
                ConditionStatus.TRUE,
                Reason.DELETING,
                f"Waiting for namespace {request.namespace} to go",
            )
            return outcome
    except errors.DriverError as exc:
        if errors.is_outage(exc):
            return unreachable(request, str(exc), outcome)
        return _delete_failed(request, outcome, str(exc))
    outcome.delete_row = True
    return outcome


def _purge(request: GatewayRequest, io: PassIo, outcome: GatewayOutcome) -> None:
    """On the first pass (the namespace still active): a forced delete tries helm uninstall once, whatever it says;
    then, on every pass until the namespace is gone, remove what the release left."""
    namespace = io.kube.get_namespace(request.namespace)
    if namespace is not None and (namespace.get("status") or {}).get("phase") != NamespacePhase.TERMINATING:
        why = "forced by a platform admin"
        if not request.force_deletion:
            why = f"helm uninstall failed {request.failure_count} times"
        elif request.failure_count < request.timing.delete_max_failures:
            try:
                outcome.merge(uninstall.run(request, io, None))
            except errors.DriverError as exc:
                if errors.is_outage(exc):
                    raise
                outcome.event(Reason.DELETE_FAILED, f"helm uninstall: {exc}", warning=True)
        outcome.event(Reason.FORCED_DELETE, f"Removing what release {request.release} left without Helm: {why}")
    try:
        outcome.merge(purge.run(request, io, None))
    except Interrupted as exc:
        outcome.merge(exc.done)
        raise exc.cause from None


def _delete_failed(request: GatewayRequest, outcome: GatewayOutcome, message: str) -> GatewayOutcome:
    """Deletion never gives up: it stays Deleting and retries with backoff until the cluster answers."""
    failures = request.failure_count + 1
    delay = request.timing.retry.delay(failures)
    outcome.phase = Phase.DELETING
    outcome.failure_count, outcome.next_attempt_at = failures, request.now + delay
    outcome.requeue_after, outcome.failed = delay.total_seconds(), True
    outcome.event(Reason.DELETE_FAILED, message, warning=True)
    outcome.condition(
        ConditionType.RECONCILING,
        ConditionStatus.TRUE,
        Reason.DELETE_FAILED,
        f"Retrying in {int(delay.total_seconds())}s: {message}",
    )
    return outcome
