"""Where the project's files and pinned tools are: the one place a test learns a path of the repository."""

from __future__ import annotations

from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
TESTS_DIR = PROJECT_ROOT / "tests"
TOOLS = PROJECT_ROOT / ".tools"
HELM = TOOLS / "helm"
KUBECTL = TOOLS / "kubectl"
TSC = TOOLS / "node" / "node_modules" / ".bin" / "tsc"
MIRROR_CHART = TESTS_DIR / "charts" / "gateway"
DEVCLUSTER_PRESETS = PROJECT_ROOT / "devcluster" / "presets"
FBC_DIR = TESTS_DIR / "fixtures" / "fbc"  # file-based catalog content, by version
PYPROJECT = PROJECT_ROOT / "pyproject.toml"
