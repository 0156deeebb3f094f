"""``cpctl gateways ...``: list, get, create, apply, delete, retry, resync, events, plan and wait."""

from __future__ import annotations

from typing import IO, Any

import click
from controlplane_client.api.gateways import (
    gateways_create,
    gateways_destroy,
    gateways_events_list,
    gateways_list,
    gateways_plan,
    gateways_plan_spec,
    gateways_plans_retrieve,
    gateways_resync,
    gateways_retrieve,
    gateways_retry,
    gateways_update,
)
from controlplane_client.models import GatewayPhaseEnum, GatewayRequest, GatewaysListPhase
from controlplane_client.types import UNSET, Response

from cpctl.api import Api
from cpctl.exits import API_ERROR, NOT_FOUND, ApiError, CliError
from cpctl.output import Column, field, output_option, render
from cpctl.plans import describe
from cpctl.specs import load_body, to_request
from cpctl.state import State, pass_state
from cpctl.waiting import Wanted, parse_wanted, poll

__all__ = ["gateways"]

PHASES = [phase.value for phase in GatewayPhaseEnum]
PLAN_WAIT_SECONDS = 30  # the most the API waits for a plan in one request
COLUMNS = (
    Column("NAME", field("name")),
    Column("OWNER", field("owner")),
    Column("CLUSTER", field("cluster")),
    Column("PHASE", field("status.phase")),
    Column("ADDRESS", field("status.route_address")),
    Column("ID", field("id")),
)
EVENT_COLUMNS = (
    Column("TIME", field("timestamp")),
    Column("TYPE", field("type")),
    Column("REASON", field("reason")),
    Column("MESSAGE", field("message")),
)

spec_file = click.option(
    "-f",
    "--filename",
    "source",
    type=click.File("r"),
    required=True,
    help="The gateway spec, YAML or JSON (- for stdin).",
)
timeout_option = click.option(
    "--timeout",
    type=click.FloatRange(min=0),
    default=120,
    show_default=True,
    help="Seconds to wait before giving up (exit 4).",
)


def _find(api: Api, ref: str) -> Response:
    return api.lookup("gateway", ref, gateways_list, gateways_retrieve)


def _show(response: Response, fmt: str) -> None:
    click.echo(render(response.parsed.to_dict(), fmt, COLUMNS))


@click.group()
def gateways() -> None:
    """Tenant gateways (NAME may be a name or an id)."""


@gateways.command("list")
@click.option("--cluster", help="Only gateways on this cluster.")
@click.option("--phase", type=click.Choice([p.value for p in GatewaysListPhase]), help="Only gateways in this phase.")
@output_option
@pass_state
def list_gateways(state: State, cluster: str | None, phase: str | None, fmt: str) -> None:
    """Your gateways (every gateway, for platform admins)."""
    filters: dict[str, Any] = {"cluster": cluster} if cluster else {}
    if phase:
        filters["phase"] = GatewaysListPhase(phase)
    items = [g.to_dict() for g in state.api.items(gateways_list, **filters)]
    click.echo(render(items, fmt, COLUMNS))


@gateways.command()
@click.argument("name")
@output_option
@pass_state
def get(state: State, name: str, fmt: str) -> None:
    """One gateway, with its status."""
    _show(_find(state.api, name), fmt)


@gateways.command()
@spec_file
@output_option
@pass_state
def create(state: State, source: IO[str], fmt: str) -> None:
    """Create a gateway from a spec file."""
    body = to_request(GatewayRequest, load_body(source), source.name)
    _show(state.api.call(gateways_create, body=body, expect=(201,)), fmt)


@gateways.command()
@spec_file
@output_option
@pass_state
def apply(state: State, source: IO[str], fmt: str) -> None:
    """Create the gateway of a spec file, or update your gateway of that name to it (guarded by If-Match)."""
    body = to_request(GatewayRequest, load_body(source), source.name)
    try:
        current = _find(state.api, body.name)
    except CliError as exc:
        if exc.exit_code != NOT_FOUND:
            raise
        _show(state.api.call(gateways_create, body=body, expect=(201,)), fmt)
        return
    etag = current.headers.get("ETag", "")
    _show(state.api.call(gateways_update, current.parsed.id, body=body, if_match=etag), fmt)


@gateways.command()
@click.argument("name")
@click.option(
    "--force",
    is_flag=True,
    help="Platform admins: remove what the release left even if helm uninstall "
    "fails (its namespace, cluster-scoped objects and the control plane's objects).",
)
@output_option
@pass_state
def delete(state: State, name: str, force: bool, fmt: str) -> None:
    """Delete a gateway: it turns Deleting, and goes once the worker has uninstalled it."""
    gateway_id = _find(state.api, name).parsed.id
    _show(state.api.call(gateways_destroy, gateway_id, force=force or UNSET, expect=(202,)), fmt)


@gateways.command()
@click.argument("name")
@output_option
@pass_state
def retry(state: State, name: str, fmt: str) -> None:
    """Leave Failed: reset the failure counter and backoff, and reconcile now."""
    _show(state.api.call(gateways_retry, _find(state.api, name).parsed.id, expect=(202,)), fmt)


@gateways.command()
@click.argument("name")
@output_option
@pass_state
def resync(state: State, name: str, fmt: str) -> None:
    """Reconcile now, keeping the failure counter."""
    _show(state.api.call(gateways_resync, _find(state.api, name).parsed.id, expect=(202,)), fmt)


@gateways.command()
@click.argument("name")
@output_option
@pass_state
def events(state: State, name: str, fmt: str) -> None:
    """The gateway's events, newest first."""
    gateway_id = _find(state.api, name).parsed.id
    items = [e.to_dict() for e in state.api.items(gateways_events_list, id=gateway_id)]
    click.echo(render(items, fmt, EVENT_COLUMNS))


@gateways.command()
@click.argument("name", required=False)
@click.option("-f", "--filename", "source", type=click.File("r"), help="Plan this would-be spec instead of NAME's.")
@timeout_option
@output_option
@pass_state
def plan(state: State, name: str | None, source: IO[str] | None, timeout: float, fmt: str) -> None:
    """Preview what reconciling NAME (or the spec of -f) would do; nothing is applied or saved."""
    if (name is None) == (source is None):
        raise click.UsageError("give a gateway NAME or -f FILE, not both")
    api, expect = state.api, (200, 202)
    if source is not None:
        body = to_request(GatewayRequest, load_body(source), source.name)
        started = api.call(gateways_plan_spec, body=body, wait=PLAN_WAIT_SECONDS, expect=expect).parsed
    else:
        gateway_id = _find(api, name or "").parsed.id
        started = api.call(gateways_plan, gateway_id, wait=PLAN_WAIT_SECONDS, expect=expect).parsed

    def finished() -> Any:
        current = api.call(gateways_plans_retrieve, started.id).parsed
        return current if current.status.value != "pending" else None

    done = started if started.status.value != "pending" else poll(finished, f"plan {started.id}", timeout)
    if done.status.value == "failed":
        raise CliError(f"the plan failed: {done.error}", API_ERROR)
    data = done.to_dict()
    click.echo(describe(data) if fmt == "table" else render(data, fmt, ()))


@gateways.command()
@click.argument("name")
@click.option(
    "--for",
    "wanted",
    default="phase=Running",
    show_default=True,
    metavar="phase=PHASE|delete",
    help="The phase to reach, or delete to wait until the gateway is gone.",
)
@timeout_option
@click.option(
    "--interval", type=click.FloatRange(min=0.1), default=1.0, show_default=True, help="Seconds between polls."
)
@output_option
@pass_state
def wait(state: State, name: str, wanted: str, timeout: float, interval: float, fmt: str) -> None:
    """Wait until NAME reaches a phase (or is deleted); a gateway that turns Failed on the way ends it with exit 1."""
    condition = parse_wanted(wanted, PHASES)
    api = state.api
    try:
        gateway_id = _find(api, name).parsed.id
    except CliError as exc:
        if condition.phase is None and exc.exit_code == NOT_FOUND:
            return
        raise
    poll(lambda: _reached(api, gateway_id, condition, fmt), f"gateway {name} ({condition})", timeout, interval)


def _reached(api: Api, gateway_id: Any, condition: Wanted, fmt: str) -> bool | None:
    """True (after printing the gateway) once ``condition`` holds; None while it does not."""
    try:
        response = api.call(gateways_retrieve, gateway_id)
    except ApiError as exc:
        if condition.phase is None and exc.status == 404:
            return True
        raise
    phase = response.parsed.status.phase.value
    if phase == condition.phase:
        _show(response, fmt)
        return True
    if phase == GatewayPhaseEnum.FAILED.value:
        messages = [c.message for c in response.parsed.status.conditions if c.message]
        raise CliError(f"gateway {response.parsed.name} is Failed", API_ERROR, messages)
    return None
