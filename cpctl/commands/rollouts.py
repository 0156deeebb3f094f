"""``cpctl rollouts list|get|plan|approve|reject`` (platform admins): rollouts, and the approval of a wave's plan."""

from __future__ import annotations

import click
from controlplane_client.api.rollouts import (
    rollouts_approve,
    rollouts_list,
    rollouts_plan_retrieve,
    rollouts_reject,
    rollouts_retrieve,
)
from controlplane_client.models import ApproveRequest, RejectRequest

from cpctl.exits import CliError
from cpctl.output import Column, field, output_option, render
from cpctl.plans import describe_wave_plan
from cpctl.state import State, pass_state

__all__ = ["rollouts"]

COLUMNS = (
    Column("NAME", field("name")),
    Column("RELEASE", field("target_release")),
    Column("PHASE", field("status.phase")),
    Column("WAVE", field("status.current_wave")),
    Column("WAVES", field("status.wave_count")),
    Column("APPROVAL", field("status.approval.state")),
    Column("CREATED BY", field("created_by")),
)


@click.group()
def rollouts() -> None:
    """Rollouts of a release over gateways, in health-gated waves; approve or reject a wave's plan."""


@rollouts.command("list")
@output_option
@pass_state
def list_rollouts(state: State, fmt: str) -> None:
    """Every rollout."""
    click.echo(render([r.to_dict() for r in state.api.items(rollouts_list)], fmt, COLUMNS))


@rollouts.command()
@click.argument("rollout")
@output_option
@pass_state
def get(state: State, rollout: str, fmt: str) -> None:
    """One rollout (by id or name), with its status."""
    found = state.api.lookup("rollout", rollout, rollouts_list, rollouts_retrieve)
    click.echo(render(found.parsed.to_dict(), fmt, COLUMNS))


def _plan(state: State, rollout: str) -> tuple[str, dict]:
    found = state.api.lookup("rollout", rollout, rollouts_list, rollouts_retrieve).parsed
    return found.name, {"id": found.id, **state.api.call(rollouts_plan_retrieve, found.id).parsed.to_dict()}


@rollouts.command()
@click.argument("rollout")
@pass_state
def plan(state: State, rollout: str) -> None:
    """The current wave's plan: its plan_hash and state, and each gateway's diff."""
    name, found = _plan(state, rollout)
    click.echo(describe_wave_plan(name, found))


@rollouts.command()
@click.argument("rollout")
@click.option("--yes", is_flag=True, help="Approve without asking (the diff is still shown).")
@output_option
@pass_state
def approve(state: State, rollout: str, yes: bool, fmt: str) -> None:
    """Show the current wave's plan, ask, then approve exactly that plan (by its hash).

    Another platform admin than the rollout's creator must approve, unless the platform allows self-approval.
    """
    name, found = _plan(state, rollout)
    click.echo(describe_wave_plan(name, found), err=True)
    if found["state"] != "awaiting":
        raise CliError(f"wave {found['wave']}'s plan is {found['state']}; nothing waits for approval")
    if not yes and not click.confirm(f"Approve plan {found['plan_hash']}?", err=True):
        raise CliError("not approved")
    body = ApproveRequest(plan_hash=found["plan_hash"])
    approved = state.api.call(rollouts_approve, found["id"], body=body, expect=(200,))
    click.echo(render(approved.parsed.to_dict(), fmt, COLUMNS))


@rollouts.command()
@click.argument("rollout")
@click.option("--reason", required=True, help="Why; it is in the events and the Halted condition.")
@output_option
@pass_state
def reject(state: State, rollout: str, reason: str, fmt: str) -> None:
    """Reject the current wave's plan: the rollout halts with the reason."""
    found = state.api.lookup("rollout", rollout, rollouts_list, rollouts_retrieve).parsed
    rejected = state.api.call(rollouts_reject, found.id, body=RejectRequest(reason=reason), expect=(200,))
    click.echo(render(rejected.parsed.to_dict(), fmt, COLUMNS))
