"""The rollout state machine (pure): starts, parallelism, gates, bake, halt and rollback, deletion, pause."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from rollouts.machine import GatewayObservation, RolloutView, TargetView, Transition, step

NOW = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)
V1, V2 = "v1", "v2"
ROLLOUT = RolloutView(
    phase="Progressing",
    target_release_id=V2,
    release_status="Ready",
    release_message="",
    current_wave=0,
    wave_count=2,
    max_parallel=2,
    bake=timedelta(seconds=10),
    gate_timeout=timedelta(seconds=30),
    rollback=True,
)
ON_V1 = GatewayObservation(exists=True, release_id=V1, deployed_release_id=V1, observed_generation=1, phase="Running")
UPGRADED = GatewayObservation(
    exists=True, release_id=V2, deployed_release_id=V2, observed_generation=2, phase="Running"
)


def target(
    id_: int,
    state: str = "pending",
    gateway: GatewayObservation = ON_V1,
    wave: int = 0,
    started: datetime | None = None,
) -> TargetView:
    on_target = state != "pending"
    gateway = replace(gateway, release_id=V2) if on_target and gateway is ON_V1 else gateway
    return TargetView(
        id=id_,
        gateway_name=f"gw{id_}",
        wave=wave,
        state=state,
        gateway=gateway,
        started_at=started or (NOW if on_target else None),
        generation=2 if on_target else None,
    )


def states(decision) -> dict[int, str]:
    return {t.target_id: t.state for t in decision.transitions}


def test_starts_at_most_max_parallel_of_the_current_wave_only() -> None:
    decision = step(ROLLOUT, [target(1), target(2), target(3), target(4, wave=1)], NOW)
    assert states(decision) == {1: "upgrading", 2: "upgrading"}
    decision = step(ROLLOUT, [target(1, "upgrading"), target(2, "healthy", UPGRADED), target(3)], NOW)
    assert states(decision) == {3: "upgrading"}


@pytest.mark.parametrize(
    ("gateway", "expected"),
    [
        (UPGRADED, "healthy"),
        (replace(UPGRADED, observed_generation=3), "healthy"),  # a user's spec change meanwhile counts
        (replace(UPGRADED, observed_generation=1), None),  # not converged on the release change yet
        (replace(UPGRADED, deployed_release_id=V1), None),
        (replace(UPGRADED, phase="Provisioning"), None),
        (replace(UPGRADED, phase="Failed", message="boom"), "failed"),
        (replace(UPGRADED, phase="Failed", observed_generation=1), None),  # Failed from before the change
        (GatewayObservation(exists=False), "skipped"),
        (replace(UPGRADED, deleting=True), "skipped"),
    ],
)
def test_an_upgrading_target_is_judged_from_its_gateway(gateway, expected) -> None:
    decision = step(replace(ROLLOUT, max_parallel=1, rollback=False), [target(1, "upgrading", gateway)], NOW)
    assert states(decision).get(1) == expected


def test_the_gate_times_out_and_halts_rolling_the_whole_wave_back() -> None:
    late = NOW - timedelta(seconds=31)
    slow = replace(UPGRADED, phase="Provisioning", message="the route is not accepted yet")
    wave = [target(1, "upgrading", slow, started=late), target(2, "healthy", UPGRADED), target(3), target(4, wave=1)]
    decision = step(ROLLOUT, wave, NOW)
    assert decision.transitions == [
        Transition(1, "failed", "Not Ready within 30s (Provisioning: the route is not accepted yet)"),
        Transition(1, "rolled_back", "Not Ready within 30s (Provisioning: the route is not accepted yet)"),
        Transition(2, "rolled_back", "Wave rolled back"),
    ]
    assert decision.phase == "Halted"
    assert decision.condition[:3] == ("Halted", "True", "GateFailed") and "gw1" in decision.condition[3]


def test_halt_without_rollback_only_stops() -> None:
    failed = replace(UPGRADED, phase="Failed", message="boom")
    decision = step(replace(ROLLOUT, rollback=False), [target(1, "upgrading", failed), target(2)], NOW)
    assert states(decision) == {1: "failed"} and decision.phase == "Halted"


def test_a_healthy_wave_bakes_then_the_next_starts_and_the_last_completes() -> None:
    done = [target(1, "healthy", UPGRADED), target(2, "skipped")]
    first = step(ROLLOUT, done, NOW)
    assert first.baking_since == NOW and first.current_wave is None
    baked = replace(ROLLOUT, baking_since=NOW - timedelta(seconds=10))
    second = step(baked, done, NOW)
    assert (second.current_wave, second.wave_started, second.clear_baking) == (1, True, True)
    last = step(replace(baked, current_wave=1), [target(3, "healthy", UPGRADED, wave=1)], NOW)
    assert last.phase == "Completed"


def test_pending_waits_for_the_release_and_halts_on_an_invalid_one() -> None:
    pending = replace(ROLLOUT, phase="Pending", release_status="Pending")
    assert step(pending, [target(1)], NOW).phase is None
    started = step(replace(pending, release_status="Ready"), [target(1)], NOW)
    assert (started.phase, started.current_wave, started.transitions) == ("Progressing", 0, [])
    invalid = step(replace(pending, release_status="Invalid", release_message="no key 'x'"), [target(1)], NOW)
    assert invalid.phase == "Halted" and invalid.condition[2] == "ReleaseInvalid"


@pytest.mark.parametrize("phase", ["Paused", "Halted", "Completed", "Aborted"])
def test_stopped_rollouts_decide_nothing(phase) -> None:
    decision = step(replace(ROLLOUT, phase=phase), [target(1), target(2, "upgrading", UPGRADED)], NOW)
    assert decision.transitions == [] and decision.phase is None


HELD = "cluster east: Waiting for the next maintenance window, at 2025-01-01T22:00:00+01:00"


def test_a_target_whose_cluster_window_is_closed_is_not_started_and_the_wave_waits() -> None:
    decision = step(ROLLOUT, [replace(target(1), window_hold=HELD), target(2)], NOW)
    assert states(decision) == {2: "upgrading"}
    assert decision.window_wait == f"gw1 waits: {HELD}"


def test_a_wave_under_way_when_its_window_closes_finishes_its_gateways_and_starts_no_new_one() -> None:
    wave = [target(1, "upgrading", UPGRADED), replace(target(2), window_hold=HELD), target(3, wave=1)]
    decision = step(ROLLOUT, wave, NOW)
    assert states(decision) == {1: "healthy"}
    assert decision.window_wait is not None and decision.phase is None and decision.current_wave is None


def test_a_wave_awaiting_approval_starts_nobody_and_says_so() -> None:
    held = replace(ROLLOUT, gate="awaiting")
    decision = step(held, [target(1), target(2)], NOW)
    assert decision.transitions == [] and decision.phase == "AwaitingApproval"
    assert decision.condition[:3] == ("Approved", "False", "AwaitingApproval")
    waiting = replace(held, phase="AwaitingApproval")
    decision = step(waiting, [target(1), target(2)], NOW)
    assert decision.transitions == [] and decision.phase is None


def test_an_open_gate_moves_an_awaiting_rollout_back_to_progressing_and_starts_the_wave() -> None:
    decision = step(replace(ROLLOUT, phase="AwaitingApproval"), [target(1), target(2)], NOW)
    assert decision.phase == "Progressing" and states(decision) == {1: "upgrading", 2: "upgrading"}


def test_a_held_wave_still_judges_the_gateways_under_way() -> None:
    """An approval voided mid-wave holds the rest; an upgrade under way that fails still halts the rollout."""
    held = replace(ROLLOUT, phase="AwaitingApproval", gate="awaiting", rollback=False)
    decision = step(held, [target(1, "upgrading", replace(UPGRADED, phase="Failed", message="boom")), target(2)], NOW)
    assert states(decision) == {1: "failed"} and decision.phase == "Halted"
    decision = step(held, [target(1, "upgrading", UPGRADED), target(2)], NOW)
    assert states(decision) == {1: "healthy"}
