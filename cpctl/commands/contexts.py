"""``cpctl login`` and ``cpctl context list|use|delete``."""

from __future__ import annotations

from urllib.parse import urlsplit

import click
from controlplane_client.api.gateways import gateways_list

from cpctl import config
from cpctl.api import Api
from cpctl.output import Column, field, output_option, render
from cpctl.state import State, complete_context, pass_state

__all__ = ["context", "login"]

COLUMNS = (
    Column("CURRENT", lambda row: "*" if row["current"] else ""),
    Column("NAME", field("name")),
    Column("URL", field("url")),
)


@click.command()
@click.argument("url")
@click.option("--token", envvar="CPCTL_TOKEN", prompt=True, hide_input=True, help="API token (or $CPCTL_TOKEN).")
@click.option("--name", "name", help="Context name (default: the URL's host and port).")
@pass_state
def login(state: State, url: str, token: str, name: str | None) -> None:
    """Check a token against URL, save it as a context and make that context current."""
    name = name or urlsplit(url).netloc or url
    saved = config.Context(name=name, url=url.rstrip("/"), token=token)
    Api(saved).call(gateways_list, limit=1)
    state.config.contexts[name] = saved
    state.config.current = name
    config.save(state.config, state.path)
    click.echo(f"Logged in to {saved.url}; context {name!r} is current.")


@click.group()
def context() -> None:
    """List, switch or delete saved contexts (tokens are never printed)."""


@context.command("list")
@output_option
@pass_state
def list_contexts(state: State, fmt: str) -> None:
    """The saved contexts; ``*`` marks the current one."""
    rows = [
        {"current": c.name == state.config.current, "name": c.name, "url": c.url}
        for c in state.config.contexts.values()
    ]
    click.echo(render(rows, fmt, COLUMNS))


@context.command("use")
@click.argument("name", shell_complete=complete_context)
@pass_state
def use(state: State, name: str) -> None:
    """Make NAME the current context."""
    state.config.current = state.config.get(name).name
    config.save(state.config, state.path)
    click.echo(f"Context {name!r} is current.")


@context.command("delete")
@click.argument("name", shell_complete=complete_context)
@pass_state
def delete(state: State, name: str) -> None:
    """Forget the context NAME (and its token)."""
    del state.config.contexts[state.config.get(name).name]
    if state.config.current == name:
        state.config.current = None
    config.save(state.config, state.path)
    click.echo(f"Context {name!r} deleted.")
