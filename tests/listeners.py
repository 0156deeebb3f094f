"""A loopback server that answers nothing and counts the connections it is given: how a test sees how often a
client tries, and whether it gives up on its own, without a stopwatch."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import StrEnum


class Answer(StrEnum):
    """What the listener does with each connection it accepts."""

    HANG_UP = "hang-up"  # close it at once: a server that is gone
    SILENCE = "silence"  # hold it open and never reply: a hung server


@dataclass
class Listener:
    """The address of a running listener, and the connections it has accepted so far."""

    port: int
    accepted: list[socket.socket] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def count(self) -> int:
        return len(self.accepted)


@contextmanager
def listening(answer: Answer) -> Iterator[Listener]:
    """A listener on a free loopback port until the block ends. Then it takes every connection still waiting to
    be accepted (so ``count`` is every connection made in the block) and closes them all."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.05)  # how often the accepting thread looks whether the block has ended
    listener = Listener(server.getsockname()[1])
    ended = threading.Event()

    def take(connection: socket.socket) -> None:
        listener.accepted.append(connection)
        if answer is Answer.HANG_UP:
            connection.close()

    def serve() -> None:
        while not ended.is_set():
            try:
                take(server.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield listener
    finally:
        ended.set()
        thread.join()
        server.setblocking(False)
        try:
            while True:
                take(server.accept()[0])
        except BlockingIOError:
            pass
        server.close()
        for connection in listener.accepted:
            connection.close()
