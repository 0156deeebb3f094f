"""Thin Celery tasks, one module per resource. Task names are explicit and stable (``workers.tasks.<name>``)."""
