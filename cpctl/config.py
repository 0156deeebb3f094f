"""The context file: named API endpoints with their tokens, and which one is current.

    current-context: local
    contexts:
    - name: local
      url: http://127.0.0.1:8000
      token: ...

It lives at ``$CPCTL_CONFIG``, else ``$XDG_CONFIG_HOME/cpctl/config.yaml``, else ``~/.config/cpctl/config.yaml``,
and is written with mode 0600 (it holds tokens).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

import yaml

from cpctl.exits import NOT_FOUND, USAGE, CliError

__all__ = ["Config", "Context", "config_path", "load", "resolve", "save"]


@dataclass(frozen=True)
class Context:
    name: str
    url: str
    token: str


@dataclass
class Config:
    current: str | None = None
    contexts: dict[str, Context] = field(default_factory=dict)

    def get(self, name: str) -> Context:
        if name not in self.contexts:
            raise CliError(f"no context named {name!r} (see: cpctl context list)", NOT_FOUND)
        return self.contexts[name]


def config_path(env: Mapping[str, str] = os.environ) -> Path:
    if env.get("CPCTL_CONFIG"):
        return Path(env["CPCTL_CONFIG"])
    base = Path(env["XDG_CONFIG_HOME"]) if env.get("XDG_CONFIG_HOME") else Path.home() / ".config"
    return base / "cpctl" / "config.yaml"


def load(path: Path) -> Config:
    """The file's contexts; an absent file is an empty configuration."""
    try:
        data = yaml.safe_load(path.read_text()) if path.exists() else None
        data = data or {}
        contexts = {
            str(c["name"]): Context(str(c["name"]), str(c["url"]), str(c["token"])) for c in data.get("contexts", [])
        }
        current = data.get("current-context")
    except (OSError, yaml.YAMLError, KeyError, TypeError, AttributeError) as exc:
        raise CliError(f"cannot read the context file {path}: {exc}", USAGE) from exc
    return Config(current=current if current in contexts else None, contexts=contexts)


def save(config: Config, path: Path) -> None:
    """Write the file atomically, readable only by its owner."""
    data = {
        "current-context": config.current,
        "contexts": [{"name": c.name, "url": c.url, "token": c.token} for c in config.contexts.values()],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".tmp")
    with os.fdopen(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as handle:
        yaml.safe_dump(data, handle, sort_keys=False)
    partial.replace(path)


def resolve(config: Config, name: str | None, env: Mapping[str, str] = os.environ) -> Context:
    """The context to use: ``--context NAME`` as stored; else the current one with ``CPCTL_URL``/``CPCTL_TOKEN``
    overriding its URL and token (enough on their own, without any file)."""
    if name:
        return config.get(name)
    base = config.contexts.get(config.current or "") or Context("env", "", "")
    context = replace(base, url=env.get("CPCTL_URL") or base.url, token=env.get("CPCTL_TOKEN") or base.token)
    if not context.url or not context.token:
        raise CliError("no context: run `cpctl login URL`, or set CPCTL_URL and CPCTL_TOKEN", USAGE)
    return context
