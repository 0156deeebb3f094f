"""Write one standard gzip member, compressing chunks in threads (pure, no Django).

zlib releases the GIL while it deflates, so chunks compress in parallel, as pigz does: every chunk
is deflated on its own, primed with the 32 KiB before it (``zdict``) so back-references still reach
across chunks, and ended with a sync flush (byte-aligned, not final); the last one is finished.
The raw deflate pieces, in order, form one deflate stream between a gzip header (mtime 0) and a
trailer holding the CRC32 and the length modulo 2**32 of the whole input (RFC 1952).
"""

from __future__ import annotations

import os
import struct
import zlib
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from typing import BinaryIO

__all__ = ["CHUNK_BYTES", "ParallelGzipWriter", "default_threads"]

CHUNK_BYTES = 1024 * 1024
WINDOW_BYTES = 32 * 1024
MAX_THREADS = 4
# ID1 ID2, CM=deflate, FLG=0, MTIME=0, XFL=0, OS=255 (unknown), as Python's gzip module writes it with mtime=0.
HEADER = b"\x1f\x8b\x08\x00" + struct.pack("<I", 0) + b"\x00\xff"


def default_threads() -> int:
    """The CPUs this process may run on (all of them where affinity is unknown), at most ``MAX_THREADS``."""
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(MAX_THREADS, usable))


def _deflate(data: bytes, primer: bytes, level: int, last: bool) -> bytes:
    compressor = (
        zlib.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS, zdict=primer)
        if primer
        else zlib.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS)
    )
    return compressor.compress(data) + compressor.flush(zlib.Z_FINISH if last else zlib.Z_SYNC_FLUSH)


class ParallelGzipWriter:
    """A write-only gzip stream onto ``out`` (left open); ``close()`` writes the trailer."""

    def __init__(self, out: BinaryIO, level: int, threads: int | None = None, chunk_bytes: int = CHUNK_BYTES) -> None:
        self._out, self._level, self._chunk_bytes = out, level, chunk_bytes
        self._threads = threads or default_threads()
        self._pool = ThreadPoolExecutor(self._threads, thread_name_prefix="gzip")
        self._pending: deque[Future[bytes]] = deque()
        self._buffer: list[bytes] = []
        self._buffered = 0
        self._primer = b""
        self._crc = 0
        self._size = 0
        self._closed = False
        out.write(HEADER)

    def write(self, data: bytes) -> None:
        self._buffer.append(data)
        self._buffered += len(data)
        if self._buffered >= self._chunk_bytes:
            self._submit(last=False)

    def close(self) -> None:
        """Compress what is left, write every piece in order, then the CRC32 and ISIZE trailer."""
        if self._closed:
            return
        self._closed = True
        try:
            self._submit(last=True)
            while self._pending:
                self._out.write(self._pending.popleft().result())
            self._out.write(struct.pack("<II", self._crc, self._size & 0xFFFFFFFF))
        finally:
            self._pool.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> ParallelGzipWriter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        if exc_info[0] is None:
            self.close()
        else:
            self._closed = True
            self._pool.shutdown(wait=True, cancel_futures=True)

    def _submit(self, *, last: bool) -> None:
        chunk = b"".join(self._buffer) if len(self._buffer) != 1 else self._buffer[0]
        self._buffer, self._buffered = [], 0
        self._crc = zlib.crc32(chunk, self._crc)
        self._size += len(chunk)
        self._pending.append(self._pool.submit(_deflate, chunk, self._primer, self._level, last))
        self._primer = (self._primer + chunk)[-WINDOW_BYTES:] if len(chunk) < WINDOW_BYTES else chunk[-WINDOW_BYTES:]
        while len(self._pending) > 2 * self._threads:  # bounded memory: wait for the oldest piece
            self._out.write(self._pending.popleft().result())
