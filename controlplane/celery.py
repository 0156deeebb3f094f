"""The Celery app: worker and beat share it. Tasks live in ``workers.tasks.*``."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "controlplane.settings")

app = Celery("controlplane")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.imports = ("workers.startup", "workers.tasks.clusters", "workers.tasks.gateways", "workers.tasks.catalogs")
