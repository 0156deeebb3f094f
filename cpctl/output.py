"""Rendering of API objects (plain dicts, as ``to_dict()`` gives them) as a table, JSON or YAML."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import click
import yaml

__all__ = ["FORMATS", "Column", "condition", "field", "output_option", "render", "table"]

FORMATS = ("table", "json", "yaml")

Getter = Callable[[Mapping[str, Any]], Any]


@dataclass(frozen=True)
class Column:
    header: str
    value: Getter


def field(path: str) -> Getter:
    """A getter for a dotted path (``status.phase``); a missing step gives None."""

    def get(item: Mapping[str, Any]) -> Any:
        value: Any = item
        for key in path.split("."):
            value = value.get(key) if isinstance(value, Mapping) else None
        return value

    return get


def condition(type_: str) -> Getter:
    """A getter for the status of the condition ``type_`` in ``status.conditions``."""

    def get(item: Mapping[str, Any]) -> Any:
        conditions = field("status.conditions")(item) or []
        return next((c.get("status") for c in conditions if c.get("type") == type_), None)

    return get


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(_cell(v) for v in value)
    if isinstance(value, Mapping):
        return ",".join(f"{k}={_cell(v)}" for k, v in value.items())
    return str(value)


def table(items: Sequence[Mapping[str, Any]], columns: Sequence[Column]) -> str:
    """Left-aligned columns under upper-case headers, three spaces apart, no trailing blanks."""
    rows = [[c.header for c in columns], *([_cell(c.value(item)) for c in columns] for item in items)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(columns))]
    return "\n".join(
        "   ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in rows
    )


def render(data: Mapping[str, Any] | Sequence[Mapping[str, Any]], fmt: str, columns: Sequence[Column]) -> str:
    """One object or a list of them in ``fmt``; a table shows one row per object."""
    if fmt == "json":
        return json.dumps(data, indent=2)
    if fmt == "yaml":
        return yaml.safe_dump(data, sort_keys=False).rstrip("\n")
    return table([data] if isinstance(data, Mapping) else data, columns)


output_option = click.option(
    "-o", "--output", "fmt", type=click.Choice(FORMATS), default="table", show_default=True, help="Output format."
)
