"""Flavour presets: sets of CRD manifests (YAML files in `presets/`) installed at start."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

PRESETS_DIR = Path(__file__).parent / "presets"


def flavours() -> dict[str, list[str]]:
    return yaml.safe_load((PRESETS_DIR / "flavours.yaml").read_text())


def manifests(flavour: str) -> list[dict[str, Any]]:
    """Every manifest the flavour installs, in file order."""
    files = flavours().get(flavour)
    if files is None:
        raise ValueError(f"unknown flavour {flavour!r}; choose from {sorted(flavours())}")
    docs: list[dict[str, Any]] = []
    for name in files:
        docs.extend(doc for doc in yaml.safe_load_all((PRESETS_DIR / name).read_text()) if doc)
    return docs
