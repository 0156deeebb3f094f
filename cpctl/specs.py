"""Request bodies from YAML or JSON files, checked against the generated request models."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import IO, Any, Protocol, TypeVar

import attrs
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


def _declared(model: Any) -> list[str]:
    """The declared fields of a generated model; none for a free-form map such as ``labels``."""
    return [f.name for f in attrs.fields(type(model)) if f.name != "additional_properties"]


def unknown_keys(sent: Mapping[str, Any], model: RequestModel, prefix: str = "") -> list[str]:
    """Dotted paths of keys in ``sent`` that ``model`` (built from it) dropped or kept only as extras."""
    if not _declared(model):
        return []
    kept, extras = model.to_dict(), set(getattr(model, "additional_properties", {}))
    found: list[str] = []
    for key, value in sent.items():
        child = getattr(model, key, None)
        if key not in kept or key in extras:
            found.append(f"{prefix}{key}")
        elif isinstance(value, Mapping) and attrs.has(type(child)):
            found.extend(unknown_keys(value, child, f"{prefix}{key}."))
    return found


def to_request(model: type[M], body: dict[str, Any], source: str) -> M:
    """``model.from_dict(body)``, refusing missing required fields and fields the API does not know."""
    try:
        request = model.from_dict(body)  # type: ignore[attr-defined]
    except KeyError as exc:
        raise CliError(f"{source}: missing required field {exc.args[0]!r}", USAGE) from exc
    except (TypeError, ValueError, AttributeError) as exc:
        raise CliError(f"{source}: {exc}", USAGE) from exc
    unknown = unknown_keys(body, request)
    if unknown:
        raise CliError(f"{source}: unknown fields: {', '.join(unknown)}", USAGE)
    return request
