"""``cpctl``: the command-line client of the control plane (gateways, catalogs, clusters, releases, rollouts)."""

from __future__ import annotations

import click

from cpctl.commands import catalogs, clusters, completion, contexts, gateways, releases, rollouts
from cpctl.config import config_path
from cpctl.state import State, complete_context

__all__ = ["cli"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--context",
    "context_name",
    metavar="NAME",
    shell_complete=complete_context,
    help="Use this context of the context file (default: the current one).",
)
@click.pass_context
def cli(ctx: click.Context, context_name: str | None) -> None:
    """Manage tenant gateways, catalogs and clusters of the control plane.

    Exit codes: 0 ok, 1 API or connection error, 2 usage, 3 not found, 4 timed out.
    """
    ctx.obj = State(config_path(), context_name)


for group in (
    contexts.login,
    contexts.context,
    gateways.gateways,
    catalogs.catalogs,
    clusters.clusters,
    releases.releases,
    rollouts.rollouts,
    completion.completion,
):
    cli.add_command(group)
