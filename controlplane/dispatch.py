"""Enqueue background work by task name, only after the surrounding transaction commits.

Views never import worker code: tasks are addressed by name (``controlplane.tasks.TaskName``). A broker outage
never fails the API write; the periodic resync picks the object up, because the database is the source of truth.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from controlplane.tasks import TaskName

__all__ = ["enqueue_on_commit", "send"]

log = logging.getLogger(__name__)


def send(task_name: TaskName, *args: Any, queue: str | None = None) -> bool:
    """Publish one task without retrying; return False (and log) when the broker is down.

    ``queue`` None lets the routers choose (``controlplane.queues``). A name that is no task's is a ValueError
    here, not a message the workers would drop."""
    from controlplane.celery import app

    task_name = TaskName(task_name)
    try:
        app.send_task(task_name, args=[str(a) for a in args], retry=False, queue=queue)
    except Exception as exc:
        log.warning("could not enqueue %s(%s): %s; the periodic resync will retry", task_name, args, exc)
        return False
    return True


def enqueue_on_commit(task_name: TaskName, *args: Any, queue: str | None = None) -> None:
    task_name = TaskName(task_name)  # refused now, in the request, rather than after the commit
    transaction.on_commit(lambda: send(task_name, *args, queue=queue))
