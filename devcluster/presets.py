"""Flavour presets: sets of CRD manifests (YAML files in `presets/`) installed at start."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

PRESETS_DIR = Path(__file__).parent / "presets"


def flavours() -> dict[str, list[str]]:
    return yaml.safe_load((PRESETS_DIR / "flavours.yaml").read_text())


def extras() -> list[str]:
    """Optional presets a cluster may add with ``--with NAME`` (files not named by any flavour)."""
    used = {name for files in flavours().values() for name in files}
    return sorted(p.stem for p in PRESETS_DIR.glob("*.yaml") if p.name not in used and p.name != "flavours.yaml")


def manifests(flavour: str, extra: list[str] = ()) -> list[dict[str, Any]]:
    """Every manifest the flavour installs, then those of the ``extra`` presets, in file order."""
    files = flavours().get(flavour)
    if files is None:
        raise ValueError(f"unknown flavour {flavour!r}; choose from {sorted(flavours())}")
    unknown = set(extra) - set(extras())
    if unknown:
        raise ValueError(f"unknown presets {sorted(unknown)}; choose from {extras()}")
    docs: list[dict[str, Any]] = []
    for name in [*files, *(f"{e}.yaml" for e in extra)]:
        docs.extend(doc for doc in yaml.safe_load_all((PRESETS_DIR / name).read_text()) if doc)
    return docs
