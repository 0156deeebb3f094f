"""The Celery app: worker and beat share it. Tasks live in ``workers.tasks``."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "controlplane.settings")

app = Celery("controlplane")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.imports = ("workers.tasks",)


@app.on_after_configure.connect
def _schedule_resync(sender: Celery, **_: object) -> None:
    from django.conf import settings

    sender.add_periodic_task(
        settings.RESYNC_INTERVAL_SECONDS, sender.signature("workers.tasks.resync_all"), name="resync all objects"
    )
