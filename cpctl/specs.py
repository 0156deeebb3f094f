"""Request bodies from YAML or JSON files, checked against the generated request models."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import IO, Any, Protocol, TypeVar

import yaml

from cpctl.exits import USAGE, CliError

__all__ = ["load_body", "to_request", "unknown_keys"]


class RequestModel(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


M = TypeVar("M", bound=RequestModel)


def load_body(source: IO[str]) -> dict[str, Any]:
    """A mapping read from an open file (``-`` is stdin); JSON when it parses as JSON, else YAML."""
    text = source.read()
    name = getattr(source, "name", "-")
    try:
        body = json.loads(text) if text.lstrip().startswith("{") else yaml.safe_load(text)
    except (ValueError, yaml.YAMLError) as exc:
        raise CliError(f"{name}: not valid JSON or YAML: {exc}", USAGE) from exc
    if not isinstance(body, dict):
        raise CliError(f"{name}: expected a mapping of fields, got {type(body).__name__}", USAGE)
    return body


def unknown_keys(sent: Mapping[str, Any], kept: Mapping[str, Any], prefix: str = "") -> list[str]:
    """Dotted paths of keys in ``sent`` that the model dropped (``kept`` is its ``to_dict()``)."""
    found: list[str] = []
    for key, value in sent.items():
        path = f"{prefix}{key}"
        if key not in kept:
            found.append(path)
        elif isinstance(value, Mapping) and isinstance(kept[key], Mapping):
            found.extend(unknown_keys(value, kept[key], f"{path}."))
    return found


def to_request(model: type[M], body: dict[str, Any], source: str) -> M:
    """``model.from_dict(body)``, refusing missing required fields and fields the API does not know."""
    try:
        request = model.from_dict(body)  # type: ignore[attr-defined]
    except KeyError as exc:
        raise CliError(f"{source}: missing required field {exc.args[0]!r}", USAGE) from exc
    except (TypeError, ValueError, AttributeError) as exc:
        raise CliError(f"{source}: {exc}", USAGE) from exc
    unknown = unknown_keys(body, request.to_dict())
    if unknown:
        raise CliError(f"{source}: unknown fields: {', '.join(unknown)}", USAGE)
    return request
