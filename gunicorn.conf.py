"""gunicorn reads this file from its working directory (the project root): server hooks only.

Every option stays on the command line (Dockerfile, ``make run``, the e2e stack).
"""

from typing import Any

from controlplane.metrics import process_exited


def child_exit(server: Any, worker: Any) -> None:
    """In the master, after a worker exited: forget that worker's live metrics."""
    process_exited(worker.pid)
