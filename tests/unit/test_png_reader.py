"""The screenshot PNG reader (tests/fixtures/png.py): each row filter, a corner, and what it refuses."""

from __future__ import annotations

import random
import struct
import zlib

import pytest

from tests.fixtures.png import read_png


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def _filtered(kind: int, row: bytes, previous: bytes, bpp: int) -> bytes:
    out = bytearray()
    for i, value in enumerate(row):
        left = row[i - bpp] if i >= bpp else 0
        up_left = previous[i - bpp] if i >= bpp else 0
        predictor = (0, left, previous[i], (left + previous[i]) // 2, _paeth(left, previous[i], up_left))[kind]
        out.append((value - predictor) & 0xFF)
    return bytes([kind]) + bytes(out)


def encode(rows: list[bytes], width: int, colour: int = 6) -> bytes:
    """A PNG whose row ``y`` uses filter ``y % 5``, so every filter is exercised."""
    bpp = 4 if colour == 6 else 3
    previous, body = bytes(width * bpp), b""
    for y, row in enumerate(rows):
        body += _filtered(y % 5, row, previous, bpp)
        previous = row

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, len(rows), 8, colour, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(body)) + chunk(b"IEND", b"")


@pytest.mark.parametrize("colour", [6, 2])
def test_every_filter_decodes(colour) -> None:
    bpp = 4 if colour == 6 else 3
    generator = random.Random(7)
    rows = [bytes(generator.randrange(256) for _ in range(6 * bpp)) for _ in range(10)]
    pixels = read_png(encode(rows, 6, colour))
    assert (pixels.width, pixels.height, pixels.channels) == (6, 10, bpp)
    assert [bytes(row) for row in pixels.rows] == rows
    assert pixels.rgb(2, 3) == tuple(rows[3][2 * bpp : 2 * bpp + 3])


def test_a_corner_decodes_alone() -> None:
    generator = random.Random(8)
    rows = [bytes(generator.randrange(256) for _ in range(9 * 4)) for _ in range(12)]
    corner = read_png(encode(rows, 9), width=4, height=7)
    assert (corner.width, corner.height) == (4, 7)
    assert [bytes(row) for row in corner.rows] == [row[:16] for row in rows[:7]]


def test_refuses_what_it_cannot_read() -> None:
    with pytest.raises(ValueError, match="not a PNG"):
        read_png(b"GIF89a")
    palette = encode([bytes(4)], 1).replace(
        struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0), struct.pack(">IIBBBBB", 1, 1, 8, 3, 0, 0, 0)
    )
    with pytest.raises(ValueError, match="colour type 3"):
        read_png(palette)
