"""A minimal protobuf wire-format reader (varints, length-delimited and fixed-width fields)."""

from __future__ import annotations

import struct
from collections.abc import Iterator


class ProtobufError(ValueError):
    """The bytes are not a well-formed protobuf message."""


def _read_varint(data: bytes, pos: int) -> tuple[int, int]:
    result, shift = 0, 0
    while True:
        if pos >= len(data):
            raise ProtobufError("truncated varint")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7
        if shift > 63:
            raise ProtobufError("varint too long")


def iter_fields(data: bytes) -> Iterator[tuple[int, int | bytes]]:
    """Yield (field number, value): ints for varint/fixed fields, bytes for length-delimited ones."""
    pos = 0
    while pos < len(data):
        key, pos = _read_varint(data, pos)
        number, wire_type = key >> 3, key & 7
        if wire_type == 0:
            value, pos = _read_varint(data, pos)
            yield number, value
        elif wire_type == 2:
            length, pos = _read_varint(data, pos)
            if pos + length > len(data):
                raise ProtobufError("truncated length-delimited field")
            yield number, data[pos : pos + length]
            pos += length
        elif wire_type in (1, 5):
            size = 8 if wire_type == 1 else 4
            if pos + size > len(data):
                raise ProtobufError("truncated fixed field")
            yield number, struct.unpack("<Q" if size == 8 else "<I", data[pos : pos + size])[0]
            pos += size
        else:
            raise ProtobufError(f"unsupported wire type {wire_type}")


def fields_by_number(data: bytes) -> dict[int, list[int | bytes]]:
    grouped: dict[int, list[int | bytes]] = {}
    for number, value in iter_fields(data):
        grouped.setdefault(number, []).append(value)
    return grouped
