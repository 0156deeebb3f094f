"""``cpctl clusters list|add`` (platform admins)."""

from __future__ import annotations

from typing import IO

import click
from controlplane_client.api.clusters import clusters_create, clusters_list
from controlplane_client.models import ClusterFlavourEnum, ClusterRequest
from controlplane_client.types import UNSET

from cpctl.output import Column, field, output_option, render
from cpctl.state import State, pass_state

__all__ = ["clusters"]

COLUMNS = (
    Column("NAME", field("name")), Column("FLAVOUR", field("flavour")), Column("BASE DOMAIN", field("base_domain")),
    Column("REACHABLE", field("status.reachable")), Column("KUBERNETES", field("status.kubernetes_version")),
    Column("ID", field("id")),
)


@click.group()
def clusters() -> None:
    """Managed Kubernetes clusters (platform admins only)."""


@clusters.command("list")
@output_option
@pass_state
def list_clusters(state: State, fmt: str) -> None:
    """Every registered cluster."""
    click.echo(render([c.to_dict() for c in state.api.items(clusters_list)], fmt, COLUMNS))


@clusters.command()
@click.option("--name", required=True, help="The cluster's name, as gateways refer to it.")
@click.option("--kubeconfig", type=click.File("r"), required=True, help="A kubeconfig file for the cluster.")
@click.option("--flavour", type=click.Choice([f.value for f in ClusterFlavourEnum]), help="Default: kubernetes.")
@click.option("--base-domain", default="", help="Domain under which gateway routes get their host names.")
@output_option
@pass_state
def add(state: State, name: str, kubeconfig: IO[str], flavour: str | None, base_domain: str, fmt: str) -> None:
    """Register a cluster; a probe of it follows (see its status)."""
    body = ClusterRequest(
        name=name, kubeconfig=kubeconfig.read(), base_domain=base_domain,
        flavour=ClusterFlavourEnum(flavour) if flavour else UNSET,
    )
    created = state.api.call(clusters_create, body=body, expect=(201,))
    click.echo(render(created.parsed.to_dict(), fmt, COLUMNS))
