"""The Celery app: worker and beat share it. Tasks live in ``workers.tasks.*``."""

from __future__ import annotations

import os
from typing import Any

from celery import Celery
from celery.signals import worker_process_shutdown
from django.conf import settings
from kombu.entity import Queue

from controlplane.metrics import process_exited
from controlplane.queues import queue_names

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "controlplane.settings")

app = Celery("controlplane")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.imports = (
    "workers.startup",
    "workers.tasks.clusters",
    "workers.tasks.gateways",
    "workers.tasks.plans",
    "workers.tasks.catalogs",
    "workers.tasks.releases",
    "workers.tasks.rollouts",
    "workers.tasks.fleet",
    "workers.tasks.notifications",
)
# A worker started without -Q consumes all of these: start none with -Q, or some queue may go unconsumed.
app.conf.task_queues = [Queue(name) for name in queue_names(settings.GATEWAY_TENANT_QUEUES)]
app.conf.task_routes = ("gateways.pass_queue.route",)


@worker_process_shutdown.connect
def _pool_child_exited(pid: int, **_: Any) -> None:
    process_exited(pid)
