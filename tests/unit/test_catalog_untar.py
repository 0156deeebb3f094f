"""Safe layer unpacking: escapes, links, devices, limits, corrupt archives and whiteouts."""

from __future__ import annotations

import contextlib
import gzip
import os
import tarfile
from pathlib import Path

import pytest

from tests.fixtures.registry import device_entry, dir_entry, file_entry, link_entry, tar_bytes
from workers.fbc.untar import (
    CorruptLayer,
    LayerError,
    LayerTooLarge,
    UnpackLimits,
    UnsafeLayer,
    apply_layers,
    link_target,
    normalise,
)

LIMITS = UnpackLimits(max_bytes=1024 * 1024, max_entries=100)


def unpack(tmp_path: Path, *layers: bytes, limits: UnpackLimits = LIMITS) -> Path:
    root = tmp_path / "root"
    root.mkdir(exist_ok=True)
    paths = []
    for number, layer in enumerate(layers):
        path = tmp_path / f"layer{number}.tar"
        path.write_bytes(layer)
        paths.append(path)
    apply_layers(paths, root, limits)
    return root


def fifo_entry(name: str) -> tuple[tarfile.TarInfo, None]:
    info = tarfile.TarInfo(name)
    info.type = tarfile.FIFOTYPE
    return info, None


@pytest.mark.parametrize(
    ("members", "error"),
    [
        ([file_entry("/etc/evil", b"x")], UnsafeLayer),
        ([file_entry("configs/../../evil", b"x")], UnsafeLayer),
        ([file_entry("../evil", b"x")], UnsafeLayer),
        ([link_entry("configs/escape", "../../../etc/passwd")], UnsafeLayer),
        ([link_entry("escape", "..")], UnsafeLayer),
        ([link_entry("configs/hard", "/etc/passwd", hard=True)], UnsafeLayer),
        ([link_entry("configs/hard", "../../etc/passwd", hard=True)], UnsafeLayer),
        ([device_entry("dev/null")], UnsafeLayer),
        ([fifo_entry("run/pipe")], UnsafeLayer),
        ([file_entry("big", b"x" * (LIMITS.max_bytes + 1))], LayerTooLarge),
        ([file_entry(f"f{n}", b"") for n in range(LIMITS.max_entries + 1)], LayerTooLarge),
    ],
)
def test_hostile_members_are_rejected(tmp_path: Path, members: list, error: type[LayerError]) -> None:
    with pytest.raises(error):
        unpack(tmp_path, tar_bytes(members))
    assert not (tmp_path.parent / "evil").exists() and not (tmp_path / "evil").exists()


def test_link_chain_cannot_write_outside(tmp_path: Path) -> None:
    """l1 -> l2/.. with l2 -> . would resolve above the root on disk; links are stored normalised instead."""
    layer = tar_bytes([link_entry("l2", "."), link_entry("l1", "l2/.."), file_entry("l1/inside", b"x")])
    root = unpack(tmp_path, layer)
    assert os.readlink(root / "l1") == "."
    assert (root / "inside").read_bytes() == b"x"
    assert not (tmp_path / "inside").exists()


def test_absolute_links_resolve_inside_the_image(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.mkdir()
    layer = tar_bytes([dir_entry("real"), link_entry("configs", "/real"), file_entry("configs/x.json", b"{}")])
    root = unpack(tmp_path, layer)
    assert (root / "real/x.json").read_bytes() == b"{}"
    with contextlib.suppress(UnsafeLayer):
        unpack(tmp_path, tar_bytes([link_entry("host", str(victim)), file_entry("host/x.json", b"{}")]))
    assert list(victim.iterdir()) == []


@pytest.mark.parametrize(
    "layer",
    [
        b"\x1f\x8b\x08\x00" + b"\x00" * 6 + b"garbage that is not deflate data" * 4,
        gzip.compress(b"not a tar archive at all" * 40)[:-30],
        b"\x28\xb5\x2f\xfd" + b"\x00" * 64,
    ],
    ids=["corrupt-gzip", "truncated-gzip", "zstd"],
)
def test_corrupt_layers_are_rejected(tmp_path: Path, layer: bytes) -> None:
    with pytest.raises(CorruptLayer):
        unpack(tmp_path, layer)


def test_zip_bomb_stops_at_the_byte_limit(tmp_path: Path) -> None:
    layer = tar_bytes([file_entry("zeros", b"\0" * (4 * 1024 * 1024))])
    assert len(layer) < 64 * 1024
    with pytest.raises(LayerTooLarge):
        unpack(tmp_path, layer)


def test_layers_apply_in_order_with_whiteouts(tmp_path: Path) -> None:
    lower = tar_bytes(
        [
            dir_entry("configs"),
            file_entry("configs/a.json", b"1"),
            file_entry("configs/b.json", b"1"),
            dir_entry("opaque"),
            file_entry("opaque/old", b"1"),
            file_entry("keep", b"1"),
        ]
    )
    upper = tar_bytes(
        [
            file_entry("configs/a.json", b"2"),
            file_entry("configs/.wh.b.json", b""),
            file_entry("opaque/new", b"2"),
            file_entry("opaque/.wh..wh..opq", b""),
        ]
    )
    root = unpack(tmp_path, lower, upper)
    assert (root / "configs/a.json").read_bytes() == b"2"
    assert not (root / "configs/b.json").exists()
    assert sorted(os.listdir(root / "opaque")) == ["new"]
    assert (root / "keep").read_bytes() == b"1"


def test_in_tree_links_are_kept_relative(tmp_path: Path) -> None:
    layer = tar_bytes(
        [
            dir_entry("data"),
            file_entry("data/catalog.json", b"{}"),
            dir_entry("configs"),
            link_entry("configs/catalog.json", "/data/catalog.json"),
            link_entry("configs/hard.json", "data/catalog.json", hard=True),
        ]
    )
    root = unpack(tmp_path, layer)
    assert os.readlink(root / "configs/catalog.json") == "../data/catalog.json"
    assert (root / "configs/hard.json").read_bytes() == b"{}"


@pytest.mark.parametrize(
    ("name", "expected"),
    [("./configs/a", "configs/a"), ("configs//a/", "configs/a"), ("./", ""), ("a/./b", "a/b")],
)
def test_normalise(name: str, expected: str) -> None:
    assert normalise(name) == expected


@pytest.mark.parametrize(
    ("member", "target", "expected"),
    [("a/b", "c", "a/c"), ("a/b", "/etc/x", "etc/x"), ("a/b", "../c", "c"), ("a/b", "../../c", "../c"), ("a", ".", "")],
)
def test_link_target(member: str, target: str, expected: str) -> None:
    assert link_target(member, target) == expected
