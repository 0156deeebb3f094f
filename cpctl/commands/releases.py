"""``cpctl releases list|get|create|default|keys`` (platform admins): the software gateways run, and the keys that
must verify it."""

from __future__ import annotations

import json
from typing import TextIO

import click
from controlplane_client.api.releases import (
    releases_create,
    releases_list,
    releases_partial_update,
    releases_retrieve,
)
from controlplane_client.models import GatewayReleaseRequest, PatchedGatewayReleaseRequest, SignaturePolicyRequest
from controlplane_client.models.gateway_release_request_values import GatewayReleaseRequestValues
from controlplane_client.types import UNSET

from cpctl.exits import USAGE, CliError
from cpctl.output import Column, condition, field, output_option, render
from cpctl.state import State, pass_state

__all__ = ["releases"]

COLUMNS = (
    Column("NAME", field("name")),
    Column("CHART", field("chart")),
    Column("VERSION", field("version")),
    Column("IMAGE", field("image")),
    Column("SUPERVISOR IMAGE", field("supervisor_image")),
    Column("DEFAULT", field("default")),
    Column("STATUS", field("status.status")),
    Column("VERIFIED", condition("Verified")),
)
PUBLIC_KEY_HELP = "A cosign public key (PEM file, e.g. cosign.pub); repeat for up to 8 keys, any one of which verifies."


def read_keys(files: tuple[TextIO, ...]) -> str:
    """The PEM keys of ``--public-key`` files, concatenated as the API takes them (it checks them)."""
    return "".join(f.read().strip() + "\n" for f in files)


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
@click.option("--public-key", "public_keys", type=click.File(), multiple=True, help=PUBLIC_KEY_HELP)
@click.option("--chart-digest", default="", help="sha256:<hex> of the packaged local chart (with --public-key).")
@output_option
@pass_state
def create(
    state: State,
    name: str,
    chart: str,
    chart_version: str,
    image: str,
    supervisor_image: str,
    allow_mixed_provenance: bool,
    values_json: str,
    make_default: bool,
    public_keys: tuple[TextIO, ...],
    chart_digest: str,
    fmt: str,
) -> None:
    """Create a release; a rollout then moves gateways to it (chart and images together). With --public-key, the
    worker verifies its chart and images before it is Ready, and its gateways run the digests it verified."""
    try:
        values = json.loads(values_json) if values_json else {}
    except ValueError as exc:
        raise CliError(f"--values is not JSON: {exc}", USAGE) from None
    if not isinstance(values, dict):
        raise CliError("--values must be a JSON object", USAGE)
    body = GatewayReleaseRequest(
        name=name,
        chart=chart,
        version=chart_version,
        image=image,
        supervisor_image=supervisor_image,
        allow_mixed_provenance=allow_mixed_provenance or UNSET,
        default=make_default or UNSET,
        values=GatewayReleaseRequestValues.from_dict(values) if values else UNSET,
        signature_policy=SignaturePolicyRequest(public_keys=read_keys(public_keys)) if public_keys else UNSET,
        chart_digest=chart_digest or UNSET,
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


@releases.command("keys")
@click.argument("name")
@click.option("--public-key", "public_keys", type=click.File(), multiple=True, required=True, help=PUBLIC_KEY_HELP)
@output_option
@pass_state
def change_keys(state: State, name: str, public_keys: tuple[TextIO, ...], fmt: str) -> None:
    """Change a signed release's keys: what it pinned is verified again, and until it verifies nothing more runs
    from it (see VERIFIED)."""
    found = state.api.lookup("release", name, releases_list, releases_retrieve).parsed
    body = PatchedGatewayReleaseRequest(signature_policy=SignaturePolicyRequest(public_keys=read_keys(public_keys)))
    changed = state.api.call(releases_partial_update, found.id, body=body, expect=(200,))
    click.echo(render(changed.parsed.to_dict(), fmt, COLUMNS))
