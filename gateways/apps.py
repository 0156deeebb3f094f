from django.apps import AppConfig


class GatewaysConfig(AppConfig):
    name = "gateways"
    default_auto_field = "django.db.models.BigAutoField"
