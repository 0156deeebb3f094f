from django.apps import AppConfig


class WorkersConfig(AppConfig):
    """Registered only for its management commands (``watch_clusters``); it has no models."""

    name = "workers"
