"""The parallel gzip writer: one standard gzip member that gzip, Python and curl all decode."""

from __future__ import annotations

import io
import random
import shutil
import struct
import subprocess
import threading
import zlib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from workers.fbc.parallel_gzip import ParallelGzipWriter

CHUNK = 4096


def catalog_like(size: int) -> bytes:
    """Compressible lines with some noise, so matches cross chunk boundaries and literals do not."""
    rng = random.Random(size)
    lines, total = [], 0
    while total < size:
        name, noise = rng.randrange(10**6), rng.randbytes(8).hex()
        line = f'{{"schema":"olm.bundle","name":"op.v{name}","x":"{noise}"}}\n'.encode()
        lines.append(line)
        total += len(line)
    return b"".join(lines)[:size]


def packed(pieces: list[bytes], threads: int = 3) -> bytes:
    out = io.BytesIO()
    with ParallelGzipWriter(out, level=6, threads=threads, chunk_bytes=CHUNK) as writer:
        for piece in pieces:
            writer.write(piece)
    return out.getvalue()


def single_member(data: bytes) -> bytes:
    """Decode exactly one gzip member, insisting that nothing follows it."""
    decoder = zlib.decompressobj(16 + zlib.MAX_WBITS)
    body = decoder.decompress(data) + decoder.flush()
    assert decoder.eof and decoder.unused_data == b""
    return body


@pytest.mark.parametrize("size", [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 40 * CHUNK + 17, 9 * 32 * 1024])
def test_one_member_with_the_right_crc_and_length(size: int) -> None:
    data = catalog_like(size)
    pieces = [data[i : i + 1000] for i in range(0, len(data), 1000)] or [b""]
    result = packed(pieces)
    assert single_member(result) == data
    assert struct.unpack("<II", result[-8:]) == (zlib.crc32(data), len(data))
    assert result[:4] == b"\x1f\x8b\x08\x00"


def test_random_bytes_and_one_thread() -> None:
    data = random.Random(1).randbytes(10 * CHUNK + 5)
    assert single_member(packed([data], threads=1)) == data


def test_priming_keeps_the_ratio_of_one_stream() -> None:
    data = catalog_like(64 * CHUNK)
    whole = zlib.compress(data, 6)
    assert len(packed([data])) < len(whole) * 1.1


def test_gzip_tool_checks_and_decodes_it(tmp_path: Path) -> None:
    data = catalog_like(30 * CHUNK + 3)
    path = tmp_path / "all.jsonl.gz"
    path.write_bytes(packed([data]))
    subprocess.run([shutil.which("gzip") or "gzip", "-t", str(path)], check=True)
    assert subprocess.run(["gzip", "-dc", str(path)], check=True, capture_output=True).stdout == data


@pytest.fixture
def gzip_server() -> Iterator[tuple[str, bytes]]:
    data = catalog_like(25 * CHUNK + 11)
    body = packed([data])

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/jsonl")
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/all", data
    finally:
        server.shutdown()
        server.server_close()


def test_curl_decodes_it(gzip_server: tuple[str, bytes]) -> None:
    url, data = gzip_server
    fetched = subprocess.run(["curl", "-sf", "--compressed", url], check=True, capture_output=True).stdout
    assert fetched == data
