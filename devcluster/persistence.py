"""`--state-file`: the store survives a restart, as a real API server's objects survive in etcd.

The state (every object and the resourceVersion counter) is written atomically every `interval` seconds
when it changed, and once more at shutdown; a restart reloads it, so uids, resourceVersions (which keep
increasing) and CRDs are kept. Watches cannot resume across a restart: a resourceVersion from before it is
410 Gone, so clients relist. Faults, the request log and continue tokens are not kept. A SIGKILL loses the
writes since the last periodic snapshot; SIGTERM loses none that were answered.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
from pathlib import Path
from typing import Any

from devcluster.store import Store

__all__ = ["StateWriter", "read_state", "write_atomically"]


def write_atomically(path: Path, content: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as handle:
            handle.write(content)
        os.chmod(temp, 0o600)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def read_state(path: Path) -> dict[str, Any] | None:
    """The saved state, or None when there is none yet."""
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        return None


class StateWriter:
    """Writes the store to `path` periodically (when changed) in a thread, and finally on `close()`."""

    def __init__(self, store: Store, path: Path, interval: float) -> None:
        self.store, self.path, self.interval = store, path, interval
        self._written_rv = -1
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="devcluster-state", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def close(self) -> None:
        """Stop the thread and write the final state. The store's lock is kept, so no request answered
        later can change what was saved; call this last, just before the process exits."""
        self._stop.set()
        self._thread.join()
        self.store.lock.acquire()
        self._write()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            if self.store.resource_version != self._written_rv:
                self._write()

    def _write(self) -> None:
        state = self.store.dump()
        write_atomically(self.path, json.dumps(state, separators=(",", ":")))
        self._written_rv = state["resourceVersion"]
