from django.apps import AppConfig


class RolloutsConfig(AppConfig):
    name = "rollouts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from controlplane.dashboard import register_panel
        from controlplane.metrics import scraped_by_api
        from rollouts.dashboard import approval_panel
        from rollouts.metrics import RolloutCollector

        scraped_by_api(RolloutCollector())
        register_panel("rollouts", approval_panel)
