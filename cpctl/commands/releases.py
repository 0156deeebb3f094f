"""``cpctl releases list|get|create|default`` (platform admins): the software gateways run."""

from __future__ import annotations

import json

import click
from controlplane_client.api.releases import (
    releases_create,
    releases_list,
    releases_partial_update,
    releases_retrieve,
)
from controlplane_client.models import GatewayReleaseRequest, PatchedGatewayReleaseRequest
from controlplane_client.models.gateway_release_request_values import GatewayReleaseRequestValues
from controlplane_client.types import UNSET

from cpctl.exits import USAGE, CliError
from cpctl.output import Column, field, output_option, render
from cpctl.state import State, pass_state

__all__ = ["releases"]

COLUMNS = (
    Column("NAME", field("name")), Column("CHART", field("chart")), Column("VERSION", field("version")),
    Column("IMAGE", field("image")), Column("SUPERVISOR IMAGE", field("supervisor_image")),
    Column("DEFAULT", field("default")), Column("STATUS", field("status.status")),
)


@click.group()
def releases() -> None:
    """Gateway releases: chart, version, gateway and supervisor images (platform admins only)."""


@releases.command("list")
@output_option
@pass_state
def list_releases(state: State, fmt: str) -> None:
    """Every release."""
    click.echo(render([r.to_dict() for r in state.api.items(releases_list)], fmt, COLUMNS))


@releases.command()
@click.argument("name")
@output_option
@pass_state
def get(state: State, name: str, fmt: str) -> None:
    """One release, with its status."""
    found = state.api.lookup("release", name, releases_list, releases_retrieve)
    click.echo(render(found.parsed.to_dict(), fmt, COLUMNS))


@releases.command()
@click.option("--name", required=True, help="The release's name (a DNS label).")
@click.option("--chart", required=True, help="A local chart directory or .tgz, or oci://...")
@click.option("--version", "chart_version", default="", help="The chart version (required for oci:// charts).")
@click.option("--image", default="", help="The gateway image its gateways run (kept exactly; may be pinned by digest).")
@click.option("--supervisor-image", default="", help="The supervisor image, from the same registry and namespace.")
@click.option("--allow-mixed-provenance", is_flag=True, help="Accept images from different registries (audited).")
@click.option("--values", "values_json", default="", metavar="JSON", help="Values overrides, as a JSON object.")
@click.option("--default", "make_default", is_flag=True, help="Make it the default release for new gateways.")
@output_option
@pass_state
def create(
    state: State, name: str, chart: str, chart_version: str, image: str, supervisor_image: str,
    allow_mixed_provenance: bool, values_json: str, make_default: bool, fmt: str,
) -> None:
    """Create a release; a rollout then moves gateways to it (chart and images together)."""
    try:
        values = json.loads(values_json) if values_json else {}
    except ValueError as exc:
        raise CliError(f"--values is not JSON: {exc}", USAGE) from None
    if not isinstance(values, dict):
        raise CliError("--values must be a JSON object", USAGE)
    body = GatewayReleaseRequest(
        name=name, chart=chart, version=chart_version, image=image, supervisor_image=supervisor_image,
        allow_mixed_provenance=allow_mixed_provenance or UNSET, default=make_default or UNSET,
        values=GatewayReleaseRequestValues.from_dict(values) if values else UNSET,
    )
    created = state.api.call(releases_create, body=body, expect=(201,))
    click.echo(render(created.parsed.to_dict(), fmt, COLUMNS))


@releases.command("default")
@click.argument("name")
@output_option
@pass_state
def make_default(state: State, name: str, fmt: str) -> None:
    """Make a release the default: new gateways get it (and its images)."""
    found = state.api.lookup("release", name, releases_list, releases_retrieve).parsed
    body = PatchedGatewayReleaseRequest(default=True)
    changed = state.api.call(releases_partial_update, found.id, body=body, expect=(200,))
    click.echo(render(changed.parsed.to_dict(), fmt, COLUMNS))
