"""What every command shares: the context file and the chosen context (``--context``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import click

from cpctl import config
from cpctl.api import Api

__all__ = ["State", "complete_context", "pass_state"]


@dataclass
class State:
    path: Path
    context_name: str | None

    @cached_property
    def config(self) -> config.Config:
        return config.load(self.path)

    @cached_property
    def api(self) -> Api:
        return Api(config.resolve(self.config, self.context_name))


pass_state = click.make_pass_decorator(State)


def complete_context(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of context names from the context file."""
    try:
        names = config.load(config.config_path()).contexts
    except click.ClickException:
        return []
    return [name for name in names if name.startswith(incomplete)]
