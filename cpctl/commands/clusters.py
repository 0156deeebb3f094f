"""``cpctl clusters list|add|windows get|windows set|override-window`` (platform admins)."""

from __future__ import annotations

from typing import IO, Any

import click
from controlplane_client.api.clusters import (
    clusters_create,
    clusters_list,
    clusters_override_window,
    clusters_partial_update,
    clusters_retrieve,
)
from controlplane_client.models import (
    ClusterFlavourEnum,
    ClusterRequest,
    MaintenanceWindowsRequest,
    OverrideWindowRequest,
    PatchedClusterRequest,
)
from controlplane_client.types import UNSET, Response

from cpctl.api import Api
from cpctl.output import Column, field, output_option, render
from cpctl.specs import load_body, to_request
from cpctl.state import State, pass_state

__all__ = ["clusters"]

COLUMNS = (
    Column("NAME", field("name")),
    Column("FLAVOUR", field("flavour")),
    Column("BASE DOMAIN", field("base_domain")),
    Column("REACHABLE", field("status.reachable")),
    Column("KUBERNETES", field("status.kubernetes_version")),
    Column("ID", field("id")),
)
WINDOW_COLUMNS = (
    Column("CLUSTER", field("name")),
    Column("OPEN", field("status.maintenance_window.open")),
    Column("NEXT START", field("status.maintenance_window.next_start")),
    Column("OVERRIDE UNTIL", field("status.maintenance_window.override_until")),
    Column("MESSAGE", field("status.maintenance_window.message")),
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
        name=name,
        kubeconfig=kubeconfig.read(),
        base_domain=base_domain,
        flavour=ClusterFlavourEnum(flavour) if flavour else UNSET,
    )
    created = state.api.call(clusters_create, body=body, expect=(201,))
    click.echo(render(created.parsed.to_dict(), fmt, COLUMNS))


def _find(api: Api, ref: str) -> Response:
    return api.lookup("cluster", ref, clusters_list, clusters_retrieve)


def _windows(cluster: dict[str, Any]) -> dict[str, Any]:
    """What ``windows get`` shows: the windows and freezes, and whether a change may start now."""
    return {
        "name": cluster["name"],
        "maintenance_windows": cluster.get("maintenance_windows", {}),
        "status": {"maintenance_window": cluster["status"]["maintenance_window"]},
    }


@clusters.group()
def windows() -> None:
    """A cluster's maintenance windows and freezes: when upgrades and rollout waves may start."""


@windows.command("get")
@click.argument("cluster")
@output_option
@pass_state
def get_windows(state: State, cluster: str, fmt: str) -> None:
    """The cluster's windows and freezes (-o yaml or json), and whether changes may start now or when next."""
    click.echo(render(_windows(_find(state.api, cluster).parsed.to_dict()), fmt, WINDOW_COLUMNS))


@windows.command("set")
@click.argument("cluster")
@click.option(
    "-f",
    "--filename",
    "source",
    type=click.File("r"),
    required=True,
    help='The windows, YAML or JSON (- for stdin): {"windows": [...], "freezes": [...], '
    '"hold_installs_and_deletes": false}; {} for none.',
)
@output_option
@pass_state
def set_windows(state: State, cluster: str, source: IO[str], fmt: str) -> None:
    """Replace the cluster's windows and freezes (guarded by If-Match); a bad entry is refused, named."""
    current = _find(state.api, cluster)
    body = PatchedClusterRequest(
        maintenance_windows=to_request(MaintenanceWindowsRequest, load_body(source), source.name)
    )
    etag = current.headers.get("ETag", "")
    updated = state.api.call(clusters_partial_update, current.parsed.id, body=body, if_match=etag)
    click.echo(render(_windows(updated.parsed.to_dict()), fmt, WINDOW_COLUMNS))


@clusters.command("override-window")
@click.argument("cluster")
@click.option("--reason", required=True, help="Why the windows and freezes are overridden (audited).")
@click.option(
    "--minutes",
    type=click.IntRange(min=1, max=24 * 60),
    default=60,
    show_default=True,
    help="How long the override lasts, from now.",
)
@output_option
@pass_state
def override_window(state: State, cluster: str, reason: str, minutes: int, fmt: str) -> None:
    """Let upgrades and rollout waves start on the cluster now, whatever its windows and freezes say."""
    cluster_id = _find(state.api, cluster).parsed.id
    body = OverrideWindowRequest(reason=reason, minutes=minutes)
    overridden = state.api.call(clusters_override_window, cluster_id, body=body)
    click.echo(render(_windows(overridden.parsed.to_dict()), fmt, WINDOW_COLUMNS))
