"""Task names: the names the API enqueues and the tasks the workers register are the same set, and a name that
is no task's is refused when enqueued instead of being dropped by the workers."""

from __future__ import annotations

import pytest
from django.conf import settings

from controlplane.celery import app
from controlplane.dispatch import enqueue_on_commit, send
from controlplane.tasks import TaskName


def test_every_name_is_a_registered_task_and_every_project_task_has_a_name() -> None:
    app.loader.import_default_modules()
    registered = {name for name in app.tasks if name.startswith("workers.")}
    assert registered == set(TaskName)


def test_the_beat_schedule_names_only_tasks() -> None:
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert scheduled and scheduled <= set(TaskName)


@pytest.mark.parametrize("enqueue", [send, enqueue_on_commit])
def test_a_misspelt_name_is_refused(enqueue) -> None:
    with pytest.raises(ValueError, match=r"workers\.tasks\.reconcile_gatway"):
        enqueue("workers.tasks.reconcile_gatway", "1")
