"""Hand a task's transient database error back to Celery as a retry with backoff, instead of dropping the work."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

from celery import Task
from django.db import OperationalError

from workers.reconcile.transient import retry_delay

__all__ = ["retried_when_transient"]


@contextmanager
def retried_when_transient(task: Task) -> Iterator[None]:
    """Run the block; a transient database error schedules the task again (Celery logs that at INFO).

    Anything else, and a transient error once the retries are spent, propagates as it was."""
    try:
        yield
    except OperationalError as exc:
        countdown = retry_delay(exc, task.request.retries, random.random())
        if countdown is None:
            raise
        raise task.retry(exc=exc, countdown=countdown, max_retries=None) from exc
