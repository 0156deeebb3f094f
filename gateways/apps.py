from django.apps import AppConfig


class GatewaysConfig(AppConfig):
    name = "gateways"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from controlplane.metrics import scraped_by_api
        from gateways.metrics import FleetCollector

        scraped_by_api(FleetCollector())
