"""``cpctl completion SHELL``: the script that enables shell completion (click's own)."""

from __future__ import annotations

import click
from click.shell_completion import get_completion_class

__all__ = ["completion"]

SHELLS = ("bash", "zsh", "fish")


@click.command()
@click.argument("shell", type=click.Choice(SHELLS))
@click.pass_context
def completion(ctx: click.Context, shell: str) -> None:
    """Print the completion script for SHELL, e.g. ``eval "$(cpctl completion bash)"`` in ~/.bashrc."""
    completer = get_completion_class(shell)
    assert completer is not None  # every SHELLS entry is one of click's
    root = ctx.find_root()
    click.echo(completer(root.command, {}, root.info_name or "cpctl", "_CPCTL_COMPLETE").source())
