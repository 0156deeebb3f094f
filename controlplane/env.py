"""Small helpers that read settings from the environment and fail fast with a named fix."""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path
from urllib.parse import urlparse

from django.core.exceptions import ImproperlyConfigured

__all__ = [
    "config_error",
    "env_bool",
    "env_choice",
    "env_int",
    "env_list",
    "env_networks",
    "env_path",
    "env_required",
    "env_str",
    "env_url",
]

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def config_error(name: str, problem: str, fix: str) -> ImproperlyConfigured:
    return ImproperlyConfigured(f"{name} {problem}. Fix: {fix}")


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_required(name: str, fix: str) -> str:
    value = os.environ.get(name, "").strip()
    if not value:
        raise config_error(name, "is not set", fix)
    return value


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise config_error(name, f"must be a boolean, got {raw!r}", f"set {name}=true or {name}=false")


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    """One of ``choices`` (case-insensitive); anything else fails start-up naming the variable."""
    value = os.environ.get(name, default).strip().lower()
    if value not in choices:
        raise config_error(name, f"must be one of {', '.join(choices)}, got {value!r}", f"set {name}={choices[0]}")
    return value


def env_int(name: str, default: int, minimum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise config_error(name, f"must be an integer, got {raw!r}", f"set {name} to a whole number") from None
    if minimum is not None and value < minimum:
        raise config_error(name, f"must be at least {minimum}, got {value}", f"raise {name} to {minimum} or more")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_networks(name: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """Comma-separated CIDRs (``10.0.0.0/8,fd00::/8``); a malformed one fails start-up naming it."""
    networks = []
    for item in env_list(name, []):
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise config_error(name, f"holds {item!r}, which is not an IP network", f"list CIDRs in {name}") from None
    return tuple(networks)


def env_url(name: str, default: str, schemes: tuple[str, ...]) -> str:
    value = os.environ.get(name, default)
    parsed = urlparse(value)
    if parsed.scheme not in schemes:
        raise config_error(
            name,
            f"has unsupported scheme {parsed.scheme!r}",
            f"use a URL starting with one of: {', '.join(s + '://' for s in schemes)}",
        )
    return value


def env_path(name: str, default: Path, must_exist: bool = False) -> Path:
    path = Path(os.environ.get(name, str(default))).expanduser()
    if must_exist and not path.exists():
        raise config_error(name, f"points to {path}, which does not exist", f"create it or set {name} to a real path")
    return path
