from django.apps import AppConfig


class RolloutsConfig(AppConfig):
    name = "rollouts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from controlplane.metrics import scraped_by_api
        from rollouts.metrics import RolloutCollector

        scraped_by_api(RolloutCollector())
