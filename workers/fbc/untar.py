"""Apply image layers to a directory safely (pure file-system code, no Django).

Rejected: absolute or ``..`` member paths, links whose target leaves the tree, device files and
FIFOs, and layers that would unpack past the byte or entry limits. Layers are applied in order
with OCI whiteouts: ``.wh.<name>`` hides a lower-layer path and ``.wh..wh..opq`` empties a
directory of lower-layer content. Every write is checked against the real (symlink-resolved)
path, so a chain of in-tree links cannot be used to write outside ``root`` either.
"""

from __future__ import annotations

import gzip
import os
import posixpath
import shutil
import tarfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "CorruptLayer",
    "LayerError",
    "LayerTooLarge",
    "UnpackLimits",
    "UnsafeLayer",
    "apply_layers",
    "inside",
]

WHITEOUT = ".wh."
OPAQUE = ".wh..wh..opq"
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
COPY_CHUNK = 1024 * 1024


class LayerError(Exception):
    """A layer cannot be applied; the image is bad, so retrying the same digest will not help."""


class UnsafeLayer(LayerError):
    """The layer tries to escape the tree or to create a device file."""


class LayerTooLarge(LayerError):
    """The layers unpack past the configured limits."""


class CorruptLayer(LayerError):
    """The layer is not a readable (optionally gzip-compressed) tar archive."""


@dataclass(frozen=True)
class UnpackLimits:
    max_bytes: int
    max_entries: int = 500_000


@dataclass
class _Budget:
    limits: UnpackLimits
    bytes_used: int = 0
    entries: int = 0

    def charge(self, size: int) -> None:
        self.bytes_used += size
        self.entries += 1
        if self.bytes_used > self.limits.max_bytes:
            raise LayerTooLarge(f"image unpacks to more than {self.limits.max_bytes} bytes")
        if self.entries > self.limits.max_entries:
            raise LayerTooLarge(f"image has more than {self.limits.max_entries} entries")


@dataclass
class _Layer:
    root: Path
    budget: _Budget
    created: set[str] = field(default_factory=set)


def inside(root: Path, path: str | Path) -> bool:
    """Whether ``path``, with every symlink resolved, is ``root`` or below it."""
    real_root = os.path.realpath(root)
    real = os.path.realpath(path)
    return real == real_root or real.startswith(real_root + os.sep)


def apply_layers(layers: Sequence[Path], root: Path, limits: UnpackLimits) -> None:
    """Unpack ``layers`` (bottom first) into the existing directory ``root``."""
    budget = _Budget(limits)
    for index, layer in enumerate(layers):
        _apply_layer(layer, _Layer(root=root, budget=budget), index)


def _apply_layer(path: Path, layer: _Layer, index: int) -> None:
    with path.open("rb") as raw:
        if raw.read(4) == ZSTD_MAGIC:
            raise CorruptLayer(f"layer {index} is zstd-compressed, which is not supported")
    try:
        with tarfile.open(path, mode="r|*") as tar:
            for member in tar:
                _apply_member(tar, member, layer)
    except (tarfile.TarError, zlib.error, EOFError, gzip.BadGzipFile) as exc:
        raise CorruptLayer(f"layer {index} is not a readable tar archive: {exc}") from None


def normalise(name: str) -> str:
    """A member name as a clean relative path ('' for the root); UnsafeLayer if it could escape."""
    if name.startswith("/"):
        raise UnsafeLayer(f"absolute path {name[:200]!r} in layer")
    parts = [part for part in name.split("/") if part not in ("", ".")]
    if ".." in parts:
        raise UnsafeLayer(f"path {name[:200]!r} escapes the image root")
    return "/".join(parts)


def link_target(member_path: str, target: str) -> str:
    """Where a symlink points, relative to the image root, lexically ('..' if it leaves the tree).

    Absolute targets are rooted at the image root, as inside a container.
    """
    if target.startswith("/"):
        return posixpath.normpath("/" + target).lstrip("/")
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(member_path), target))
    return "" if resolved == "." else resolved


def _apply_member(tar: tarfile.TarFile, member: tarfile.TarInfo, layer: _Layer) -> None:
    name = normalise(member.name)
    if not name:
        return
    parent, base = posixpath.split(name)
    if base == OPAQUE:
        _clear_lower(layer, _directory(layer, parent), parent)
        return
    if base.startswith(WHITEOUT):
        _whiteout(layer, parent, base[len(WHITEOUT) :])
        return
    if not (member.isdir() or member.isreg() or member.issym() or member.islnk()):
        raise UnsafeLayer(f"{name[:200]!r} is a device file or FIFO, which images may not carry")
    layer.budget.charge(member.size if member.isreg() else 0)
    dest = _directory(layer, parent) / base
    if member.isdir():
        if dest.is_symlink() or (dest.exists() and not dest.is_dir()):
            _remove(dest)
        dest.mkdir(mode=0o755, exist_ok=True)
    else:
        _remove(dest)
        if member.isreg():
            _write_file(tar, member, dest)
        elif member.issym():
            _symlink(name, member.linkname, dest)
        else:
            _hardlink(layer.root, member.linkname, dest)
    layer.created.add(name)


def _directory(layer: _Layer, relative: str) -> Path:
    """Create ``relative`` under root as needed; refuse if any component resolves outside root."""
    current = layer.root
    for part in [p for p in relative.split("/") if p]:
        current = current / part
        if not current.exists() and not current.is_symlink():
            current.mkdir(mode=0o755)
        elif not current.is_symlink() and not current.is_dir():
            current.unlink()
            current.mkdir(mode=0o755)
        if not inside(layer.root, current):
            raise UnsafeLayer(f"path {relative[:200]!r} leads outside the image root through a link")
        if not current.is_dir():
            raise UnsafeLayer(f"parent {relative[:200]!r} is not a directory")
    return current


def _write_file(tar: tarfile.TarFile, member: tarfile.TarInfo, dest: Path) -> None:
    source = tar.extractfile(member)
    fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "wb") as out:
        if source is not None:
            shutil.copyfileobj(source, out, COPY_CHUNK)


def _symlink(name: str, target: str, dest: Path) -> None:
    if not target:
        raise UnsafeLayer(f"symlink {name[:200]!r} has an empty target")
    resolved = link_target(name, target)
    if resolved == ".." or resolved.startswith("../"):
        raise UnsafeLayer(f"symlink {name[:200]!r} points outside the image: {target[:200]!r}")
    # Written in lexical normal form, so a chain of links cannot resolve differently on disk.
    os.symlink(posixpath.relpath(resolved or ".", posixpath.dirname(name) or "."), dest)


def _hardlink(root: Path, target: str, dest: Path) -> None:
    source = root / normalise(target)
    if not inside(root, source) or not source.is_file():
        raise UnsafeLayer(f"hard link to {target[:200]!r} does not name a file inside the image")
    os.link(os.path.realpath(source), dest)


def _whiteout(layer: _Layer, parent: str, hidden: str) -> None:
    relative = posixpath.join(parent, hidden) if parent else hidden
    if relative in layer.created:
        return
    target = _directory(layer, parent) / hidden
    _remove(target)


def _clear_lower(layer: _Layer, directory: Path, relative: str) -> None:
    """Remove what lower layers put in ``directory``, keeping what this layer created."""
    for entry in list(directory.iterdir()):
        child = f"{relative}/{entry.name}" if relative else entry.name
        if child not in layer.created:
            _remove(entry)
        elif entry.is_dir() and not entry.is_symlink():
            _clear_lower(layer, entry, child)


def _remove(path: Path) -> None:
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)
