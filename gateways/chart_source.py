"""Chart references (pure, no Django): which ones are refused, and the defaults a local chart declares.

The API never runs helm; for a local chart (a directory or a `.tgz`) it can still read `values.yaml`
and check a release's values overrides at create time. Remote (`oci://`) charts are checked by the
worker when it first loads the release.
"""

from __future__ import annotations

import tarfile
from pathlib import Path
from typing import Any

from gateways.chart_keys import defaults_from_yaml

__all__ = ["chart_source_problem", "local_chart_defaults"]


def chart_source_problem(
    ref: str, version: str, chart_field: str = "GATEWAY_CHART", version_field: str = "GATEWAY_CHART_VERSION"
) -> str | None:
    """Why the chart reference is refused (an unpinned OCI chart), or None; the message names the fields."""
    if ref.startswith("oci://") and not version and "@sha256:" not in ref:
        return (
            f"{chart_field}: {ref!r} is an OCI chart without a pinned version. Fix: set {version_field} "
            "(or pin a digest: oci://...@sha256:<hex>)."
        )
    return None


def local_chart_defaults(ref: str) -> dict[str, Any] | None:
    """The default values of a local chart this process can read; None when it cannot (remote, absent, unreadable)."""
    if ref.startswith("oci://"):
        return None
    path = Path(ref)
    try:
        if path.is_dir():
            return defaults_from_yaml((path / "values.yaml").read_text())
        if path.is_file() and tarfile.is_tarfile(path):
            with tarfile.open(path) as archive:
                member = next(
                    (m for m in archive.getmembers() if m.name.count("/") == 1 and m.name.endswith("/values.yaml")),
                    None,
                )
                extracted = archive.extractfile(member) if member else None
                return defaults_from_yaml(extracted.read().decode()) if extracted else None
    except (OSError, ValueError, tarfile.TarError):
        return None
    return None
