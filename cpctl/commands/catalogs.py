"""``cpctl catalogs ...``: list, get and resync catalogs, and stream their content (``all``, ``metas``)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from urllib.parse import quote

import click
from controlplane_client.api.catalogs import catalogs_list, catalogs_resync, catalogs_retrieve

from cpctl.output import Column, condition, field, output_option, render
from cpctl.state import State, pass_state

__all__ = ["catalogs"]

COLUMNS = (
    Column("NAME", field("name")),
    Column("PRIORITY", field("priority")),
    Column("MODE", field("availability_mode")),
    Column("SERVING", condition("Serving")),
    Column("IMAGE", field("source.image.ref")),
    Column("ID", field("id")),
)


@click.group()
def catalogs() -> None:
    """File-based catalogs (NAME may be a name or an id for list and get; content queries take the name)."""


@catalogs.command("list")
@output_option
@pass_state
def list_catalogs(state: State, fmt: str) -> None:
    """Every catalog."""
    click.echo(render([c.to_dict() for c in state.api.items(catalogs_list)], fmt, COLUMNS))


@catalogs.command()
@click.argument("name")
@output_option
@pass_state
def get(state: State, name: str, fmt: str) -> None:
    """One catalog, with its status."""
    found = state.api.lookup("catalog", name, catalogs_list, catalogs_retrieve)
    click.echo(render(found.parsed.to_dict(), fmt, COLUMNS))


@catalogs.command()
@click.argument("name")
@output_option
@pass_state
def resync(state: State, name: str, fmt: str) -> None:
    """Reconcile now; a digest the catalog was blocked on is pulled again (platform admins)."""
    found = state.api.lookup("catalog", name, catalogs_list, catalogs_retrieve)
    served = state.api.call(catalogs_resync, found.parsed.id, expect=(202,))
    click.echo(render(served.parsed.to_dict(), fmt, COLUMNS))


def _write(lines: Iterator[str]) -> None:
    """Each line to stdout as it arrives; a closed pipe (``| head``) ends quietly."""
    try:
        for line in lines:
            sys.stdout.write(line + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader is gone; point stdout at /dev/null so that Python's flush at exit does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(0) from None


@catalogs.command("all")
@click.argument("name")
@pass_state
def all_content(state: State, name: str) -> None:
    """Every document of the catalog NAME, as JSON lines."""
    _write(state.api.stream_lines(f"/catalogs/{quote(name, safe='')}/api/v1/all", {}))


@catalogs.command()
@click.argument("name")
@click.option("--schema", help="Only documents of this schema (olm.package, olm.channel, olm.bundle, ...).")
@click.option("--package", help="Only documents of this package.")
@click.option("--name", "doc_name", help="Only documents of this name.")
@pass_state
def metas(state: State, name: str, schema: str | None, package: str | None, doc_name: str | None) -> None:
    """The documents of the catalog NAME that match every filter given, as JSON lines."""
    filters = {key: value for key, value in (("schema", schema), ("package", package), ("name", doc_name)) if value}
    _write(state.api.stream_lines(f"/catalogs/{quote(name, safe='')}/api/v1/metas", filters))
