"""Embed the pinned default gateway chart in the image, checked by sha256; or record a new pin.

Usage:
  python scripts/embed_gateway_chart.py PIN DEST            pull PIN's chart at its version, check it, write DEST
  python scripts/embed_gateway_chart.py --pin VERSION PIN   pull VERSION of PIN's ref and record it and its sha256

PIN holds `ref=oci://...`, `version=` and `sha256=` lines (see scripts/gateway_chart.pin). helm is HELM_BINARY,
else `.tools/helm` beside this script, and runs with throwaway homes, so nothing but DEST is left behind.
A loopback registry is spoken to over plain HTTP (tests).
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

HEX64 = re.compile(r"[0-9a-f]{64}")
LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def read_pin(path: Path) -> dict[str, str]:
    """The pin's `key=value` lines (comments and blank lines skipped)."""
    lines = (line.strip() for line in path.read_text().splitlines())
    return dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))


def pull(ref: str, version: str, workdir: Path) -> Path:
    """The chart archive helm pulls for `ref` at `version` into `workdir`."""
    helm = os.environ.get("HELM_BINARY") or str(Path(__file__).resolve().parent.parent / ".tools" / "helm")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(workdir)}
    env |= {f"HELM_{kind}_HOME": str(workdir / kind.lower()) for kind in ("CACHE", "CONFIG", "DATA")}
    plain = ["--plain-http"] if urlsplit(ref.replace("oci://", "https://", 1)).hostname in LOOPBACK else []
    out = workdir / "out"
    out.mkdir()
    done = subprocess.run(
        [helm, "pull", ref, "--version", version, f"--destination={out}", *plain],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.returncode != 0:
        raise SystemExit(f"embed_gateway_chart: helm pull {ref} --version {version} failed: {done.stderr.strip()}")
    (archive,) = out.glob("*.tgz")
    return archive


def embed(pin_file: Path, dest: Path) -> None:
    pin = read_pin(pin_file)
    ref, version, expected = pin.get("ref", ""), pin.get("version", ""), pin.get("sha256", "")
    if not ref.startswith("oci://") or not version or not HEX64.fullmatch(expected):
        raise SystemExit(
            f"embed_gateway_chart: {pin_file} does not pin ref, version and sha256. Fix: run "
            f"`python scripts/embed_gateway_chart.py --pin VERSION {pin_file}` where the registry answers"
        )
    with tempfile.TemporaryDirectory() as tmp:
        data = pull(ref, version, Path(tmp)).read_bytes()
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected:
        raise SystemExit(
            f"embed_gateway_chart: {ref} {version} has sha256 {actual}, not the pinned {expected}; refusing to embed it"
        )
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_suffix(".partial")
    partial.write_bytes(data)
    partial.replace(dest)
    print(f"embedded {ref} {version} (sha256 {actual}) as {dest}")


def record(pin_file: Path, version: str) -> None:
    text = pin_file.read_text()
    with tempfile.TemporaryDirectory() as tmp:
        digest = hashlib.sha256(pull(read_pin(pin_file)["ref"], version, Path(tmp)).read_bytes()).hexdigest()
    text = re.sub(r"(?m)^version=.*$", f"version={version}", text)
    pin_file.write_text(re.sub(r"(?m)^sha256=.*$", f"sha256={digest}", text))
    print(f"pinned version {version}, sha256 {digest} in {pin_file}")


if __name__ == "__main__":
    match sys.argv[1:]:
        case ["--pin", version, pin_file]:
            record(Path(pin_file), version)
        case [pin_file, dest]:
            embed(Path(pin_file), Path(dest))
        case _:
            raise SystemExit(__doc__)
