"""Regenerate the Python client (``clients/python/controlplane_client``) from the API's OpenAPI schema.

    python clients/generate.py [OUTPUT_DIR]    # default: clients/python

The schema comes from ``manage.py spectacular`` (no server, no database) under a fixed, minimal
environment, so the output depends only on the code and the pinned generator and ruff versions.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "controlplane_client"
DEFAULT_OUTPUT = ROOT / "clients" / "python"
BIN = Path(sys.executable).parent
# Placeholders that only let the settings load; the schema does not depend on them.
SCHEMA_ENV = {
    "PATH": "/usr/bin:/bin",
    "SECRET_KEY": "schema-generation-only",
    "FIELD_ENCRYPTION_KEY": "c2NoZW1hLWdlbmVyYXRpb24tb25seS1rZXktMDEyMzQ=",
}


def _run(argv: list[str], **kwargs: object) -> None:
    result = subprocess.run(argv, capture_output=True, text=True, check=False, **kwargs)  # type: ignore[call-overload]
    if result.returncode != 0:
        sys.exit(f"{' '.join(argv[:3])} ... failed:\n{result.stdout}\n{result.stderr}")


def generator_config() -> dict[str, object]:
    """Package names, and ruff (the pinned one, ignoring any project config) to tidy the output."""
    ruff = BIN / "ruff"
    return {
        "project_name_override": PACKAGE,
        "package_name_override": PACKAGE,
        "post_hooks": [
            f"{ruff} check --isolated --no-cache --fix-only --extend-select I --quiet .",
            f"{ruff} format --isolated --no-cache --quiet .",
        ],
    }


def generate(output: Path) -> Path:
    """Write ``output/controlplane_client`` afresh; returns the package directory."""
    with tempfile.TemporaryDirectory(prefix="cp-client-") as tmp:
        work = Path(tmp)
        schema, config, package = work / "openapi.yaml", work / "config.json", work / "out" / PACKAGE
        _run(
            [sys.executable, "manage.py", "spectacular", "--validate", "--fail-on-warn", "--file", str(schema)],
            cwd=ROOT,
            env=SCHEMA_ENV,
        )
        config.write_text(json.dumps(generator_config()))
        _run(
            [
                str(BIN / "openapi-python-client"),
                "generate",
                "--path",
                str(schema),
                "--config",
                str(config),
                "--meta",
                "none",
                "--fail-on-warning",
                "--output-path",
                str(package),
            ]
        )
        target = output / PACKAGE
        shutil.rmtree(target, ignore_errors=True)
        output.mkdir(parents=True, exist_ok=True)
        shutil.move(package, target)
    return target


if __name__ == "__main__":
    print(generate(Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else DEFAULT_OUTPUT))
