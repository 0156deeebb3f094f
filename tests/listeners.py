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
    """A listener on a free loopback port until the block ends; then every connection it holds is closed."""
    server = socket.create_server(("127.0.0.1", 0))
    listener = Listener(server.getsockname()[1])

    def serve() -> None:
        while True:
            try:
                connection, _ = server.accept()
            except OSError:  # the server socket was closed: the block ended
                return
            listener.accepted.append(connection)
            if answer is Answer.HANG_UP:
                connection.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield listener
    finally:
        server.shutdown(socket.SHUT_RDWR)
        server.close()
        thread.join()
        for connection in listener.accepted:
            connection.close()
