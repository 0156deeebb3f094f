"""Private temporary files for credentials (kubeconfigs, Helm values)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import yaml

from workers.drivers.errors import secret_strings


@contextmanager
def private_file(content: str, name: str) -> Iterator[Path]:
    """Write `content` to `name` in a fresh 0700 temp dir as a 0600 file; remove both on exit."""
    with tempfile.TemporaryDirectory(prefix="drivers-") as directory:
        path = Path(directory) / name
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(content)
        yield path


@contextmanager
def kubeconfig_file(content: str) -> Iterator[Path]:
    """Yield the path of a private 0600 file holding the kubeconfig `content`."""
    with private_file(content, "kubeconfig") as path:
        yield path


def kubeconfig_secrets(content: str) -> set[str]:
    """Credential strings (tokens, keys, passwords) in a kubeconfig's `users`, for redaction."""
    try:
        data = yaml.safe_load(content)
    except yaml.YAMLError:
        return set()
    if not isinstance(data, dict):
        return set()
    users = data.get("users") or []
    return secret_strings([entry.get("user") for entry in users if isinstance(entry, dict)])
